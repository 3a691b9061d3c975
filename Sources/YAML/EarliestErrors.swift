/// The errors a check keeps: the `keep` earliest in the file, each made only when it is one of them, and a count of
/// every error found, up to `limit`, where the check stops looking.
///
/// Only the first errors are shown (`ConfigLimits.maxShownErrors`), so making the others' messages, with a "did you
/// mean" each, would be all cost, and aliases multiply a file's mistakes by every place that uses them: one list of
/// bad items in a 1 MB file, aliased into six widgets, is 840,000 errors, and the daemon's loop checks a hot reload. An
/// error later in the file than the kept ones is counted and dropped unmade; past `limit`, none is counted, and
/// `isFull` tells the caller to stop looking.
public struct EarliestErrors<Element> {
    /// How many are kept, made.
    public let keep: Int
    /// How many are counted before the check stops.
    public let limit: Int
    /// The kept errors, in file order (two at one place in the order they were added).
    public private(set) var earliest: [(mark: YAMLMark, error: Element)] = []
    /// The errors found, kept or not, at most `limit`.
    public private(set) var count = 0

    public init(keep: Int = ConfigLimits.maxShownErrors, limit: Int = ConfigLimits.maxCountedErrors) {
        self.keep = keep
        self.limit = max(limit, keep)
    }

    /// Whether `limit` errors were found: a check should look no further.
    public var isFull: Bool { count >= limit }

    /// The kept errors, in file order.
    public var errors: [Element] { earliest.map(\.error) }

    /// An error at `mark`, made by `make` only when it is one of the `keep` earliest so far.
    public mutating func add(at mark: YAMLMark, _ make: () -> Element) {
        guard count < limit else { return }
        count += 1
        if earliest.count == keep {
            guard let last = earliest.last, mark < last.mark else { return }
            earliest.removeLast()
        }
        // After every error at the same place: those keep the order they were found in.
        var low = 0
        var high = earliest.count
        while low < high {
            let middle = (low + high) / 2
            if mark < earliest[middle].mark { high = middle } else { low = middle + 1 }
        }
        earliest.insert((mark, make()), at: low)
    }
}

extension EarliestErrors: Sendable where Element: Sendable {}
