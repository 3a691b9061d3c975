import FoundationEssentials

/// Output writes that failed (a full disk, a directory made read-only) and when to try them again.
///
/// The writer skips unchanged entries, so without a retry a file whose write failed would stay old or missing until
/// its entry next changes, for a `.never` widget for ever, even after space comes back. Retries back off (0.5 s,
/// doubling, at most 30 s) so a full disk costs a wake-up every half minute, not a loop; they stop once every
/// failed write has gone through. While a widget's write is failing, a `--wait` for it reports the failure.
struct OutputRetry {
    static let firstDelay: TimeInterval = 0.5
    static let longestDelay: TimeInterval = 30

    /// Which of an instance's writes failed: its bar files, or its record.
    enum Part: Hashable {
        case entry, record
    }

    private struct Key: Hashable {
        var instance: String
        var part: Part
    }

    /// Why each failing write failed.
    private var failures: [Key: String] = [:]
    private var delay = Self.firstDelay
    /// When to try again; nil when nothing is failing.
    private(set) var due: Date?

    var isEmpty: Bool { failures.isEmpty }

    /// The write failed: try it again later.
    mutating func failed(_ instance: String, _ part: Part, reason: String, now: Date) {
        failures[Key(instance: instance, part: part)] = reason
        if due == nil { due = now.addingTimeInterval(delay) }
    }

    /// The write went through (or is not wanted any more); with nothing left failing, the back-off starts over.
    mutating func succeeded(_ instance: String, _ part: Part) {
        // Every swap that writes reports here: with nothing failing, hash nothing.
        if failures.isEmpty { return }
        failures[Key(instance: instance, part: part)] = nil
        if failures.isEmpty {
            due = nil
            delay = Self.firstDelay
        }
    }

    /// The instance is gone: none of its writes are wanted.
    mutating func forget(_ instance: String) {
        succeeded(instance, .entry)
        succeeded(instance, .record)
    }

    /// Why the instance's files are not on disk as they should be; nil when nothing of it is failing.
    func failure(of instance: String) -> String? {
        failures[Key(instance: instance, part: .entry)] ?? failures[Key(instance: instance, part: .record)]
    }

    /// The writes to try again at `now`, by instance, when the retry is due; the next retry is set a longer delay
    /// ahead, in case they fail again (a success clears it).
    mutating func take(now: Date) -> [(instance: String, part: Part)] {
        guard let due, due <= now else { return [] }
        delay = min(delay * 2, Self.longestDelay)
        self.due = now.addingTimeInterval(delay)
        return failures.keys.sorted {
            ($0.instance, $0.part == .entry ? 0 : 1) < ($1.instance, $1.part == .entry ? 0 : 1)
        }
        .map { ($0.instance, $0.part) }
    }
}
