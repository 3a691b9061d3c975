import Glibc

/// A named time zone read from the system's zoneinfo, or a POSIX TZ rule: offsets, abbreviations and
/// transitions at any instant (seconds since 1970, as `Int`), with no Foundation and no ICU.
/// Two zones are equal when they have the same name and the same rules (a zone re-read after a tzdata update
/// may differ from the one read before).
public struct Zone: Sendable, Hashable {
    /// `Europe/Berlin`, `localtime`, or the TZ rule a zone was made from.
    public let identifier: String
    /// The zone's rules, shared by its copies: every clock's timeline holds its zone, and inline its rules (the tables'
    /// references beside a TZ footer of some 140 bytes) would make each copy 184 bytes instead of 24.
    private let rules: Rules
    var file: TZifFile { rules.file }

    private final class Rules: Sendable {
        let file: TZifFile
        init(_ file: TZifFile) { self.file = file }
    }

    public enum LoadError: Error, Sendable, Equatable, CustomStringConvertible {
        case badIdentifier(String)
        case notFound(String)
        case unreadable(String, reason: String)

        public var description: String {
            switch self {
            case .badIdentifier(let name): "\"\(name)\" is not a time zone name"
            case .notFound(let name): "no time zone named \"\(name)\""
            case .unreadable(let name, let reason): "time zone \"\(name)\": \(reason)"
            }
        }
    }

    public static let utc = Zone(
        identifier: "UTC",
        rule: PosixTZRule(standard: .init(utcOffset: 0, isDST: false, abbreviation: "UTC"), daylight: nil))

    /// The zoneinfo directory: `TZDIR` when set, as tzcode reads it, else `/usr/share/zoneinfo`.
    public static var directory: String {
        if let value = getenv("TZDIR"), value.pointee != 0 { return String(cString: value) }
        return "/usr/share/zoneinfo"
    }

    /// The zone named `identifier` (`Europe/Berlin`, `UTC`), the system's zone for `localtime`, or a fixed offset
    /// written as ICU's custom names are (`GMT+5`, `UTC-03:30`; see `fixedOffset(named:)`).
    public static func load(identifier: String) throws(LoadError) -> Zone {
        if identifier == "localtime" { return try local() }
        let path = try zoneinfoPath(of: identifier)
        // tzdata's own `GMT+0` and the like win over ICU's custom names.
        if let zone = fixedOffset(named: identifier), access(path, F_OK) != 0 { return zone }
        return try load(path: path, identifier: identifier)
    }

    /// Where zone `identifier` is in the zoneinfo directory; a name that could leave it (`..`, an absolute path)
    /// is refused.
    private static func zoneinfoPath(of identifier: String) throws(LoadError) -> String {
        let parts = identifier.split(separator: "/", omittingEmptySubsequences: false)
        guard !identifier.isEmpty, !identifier.hasPrefix("/"),
            parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
        else { throw .badIdentifier(identifier) }
        return directory + "/" + identifier
    }

    /// The zone of the process, as the C library chooses it: `TZ` when set (a zone name, `:name`, a file
    /// path or a POSIX rule), else `/etc/localtime` (named by the zone it links to), else UTC.
    public static func local() throws(LoadError) -> Zone {
        guard let value = getenv("TZ") else { return try system() }
        var text = String(cString: value)
        if text.hasPrefix(":") { text.removeFirst() }
        if text.isEmpty { return utc }
        if text.hasPrefix("/") { return try load(path: text, identifier: text) }
        // A zoneinfo file, else a POSIX rule, as glibc reads `TZ`: `GMT+5` there is five hours west of Greenwich (the
        // rule's sign), never ICU's custom name that `timezone:` takes, which is east.
        if text != "localtime", let path = try? zoneinfoPath(of: text),
            let zone = try? load(path: path, identifier: text)
        {
            return zone
        }
        if text == "localtime" { return try system() }
        guard let rule = try? PosixTZRule(parsing: text) else { throw .notFound(text) }
        return Zone(identifier: text, rule: rule)
    }

    /// The system's zone, `/etc/localtime`, named by the zone it links to; UTC when there is none.
    private static func system() throws(LoadError) -> Zone {
        guard access("/etc/localtime", F_OK) == 0 else { return utc }
        return try load(path: "/etc/localtime", identifier: linkedIdentifier(of: "/etc/localtime"))
    }

    /// A zone that follows `rule` at every instant.
    public init(identifier: String, rule: PosixTZRule) {
        self.identifier = identifier
        rules = Rules(TZifFile(transitions: [], typeIndices: [], types: [rule.standard], footer: rule))
    }

    /// A zone read from TZif bytes.
    public init(identifier: String, tzif bytes: [UInt8]) throws(LoadError) {
        self.identifier = identifier
        do {
            rules = Rules(try TZifFile(bytes: bytes))
        } catch {
            throw .unreadable(identifier, reason: error.description)
        }
    }

    static func load(path: String, identifier: String) throws(LoadError) -> Zone {
        let bytes: [UInt8]
        switch FileBytes.read(path: path) {
        case .success(let read): bytes = read
        // A directory (`Europe`) is a region, not a zone; a name longer than a path may be names none.
        case .failure(let failure) where [ENOENT, ENOTDIR, EISDIR, ENAMETOOLONG].contains(failure.code):
            throw .notFound(identifier)
        case .failure(let failure): throw .unreadable(identifier, reason: String(cString: strerror(failure.code)))
        }
        return try Zone(identifier: identifier, tzif: bytes)
    }

    public static func == (lhs: Zone, rhs: Zone) -> Bool {
        lhs.identifier == rhs.identifier && (lhs.rules === rhs.rules || lhs.rules.file == rhs.rules.file)
    }

    // The name alone is a good hash: comparing the rules is only needed when names are equal.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }

    // MARK: - Instants

    /// The instants this type describes: ±2^55 seconds, about ±1.1 billion years. Arguments beyond are clamped
    /// into it, so that no arithmetic on an instant (adding an offset, a year's seconds) can overflow, whatever
    /// a user or a script passes in.
    public static let supportedInstants = -(1 << 55)...(1 << 55)

    static func clamped(_ instant: Int) -> Int {
        min(max(instant, supportedInstants.lowerBound), supportedInstants.upperBound)
    }

    /// The offset, daylight saving flag and abbreviation in force at `unixSeconds`.
    public func offset(at unixSeconds: Int) -> LocalTimeType {
        file.localTimeType(at: Self.clamped(unixSeconds))
    }

    /// The first instant after `unixSeconds` at which the offset, daylight saving flag or abbreviation
    /// changes; nil when none ever does.
    public func nextTransition(after unixSeconds: Int) -> Int? {
        guard unixSeconds < Self.supportedInstants.upperBound else { return nil }
        var cursor = Self.clamped(unixSeconds)
        // Table entries that change nothing are passed over; the bound only guards against a malformed file.
        for _ in 0..<(file.transitions.count + 8) {
            guard let candidate = nextRawChange(after: cursor) else { return nil }
            if offset(at: candidate) != offset(at: candidate - 1) { return candidate }
            cursor = candidate
        }
        return nil
    }

    private func nextRawChange(after unixSeconds: Int) -> Int? {
        file.nextChange(after: unixSeconds)
    }

    // MARK: - Wall-clock times

    /// How a wall-clock time maps onto instants in this zone.
    public enum Resolution: Sendable, Equatable {
        /// The time happens once, at this instant.
        case unique(Int)
        /// The time never happens: the clock jumps over it at `transition` (spring forward). `before` and
        /// `after` are the types in force on either side.
        case skipped(transition: Int, before: LocalTimeType, after: LocalTimeType)
        /// The time happens twice (fall back): first at `first`, again at `second`.
        case repeated(first: Int, second: Int)
    }

    /// The instants at which the wall clock shows `local` (seconds of a local epoch, see
    /// `CivilDateTime.localSeconds`). Assumes, like every real zone, that offsets stay within ±26 hours and
    /// that transitions are more than two days apart around the time asked about.
    public func resolve(local: Int) -> Resolution {
        let local = Self.clamped(local)
        let window = 2 * 86_400
        var instants: [Int] = []
        var candidateOffsets = [offset(at: local - window).utcOffset]
        var changes: [Int] = []
        var cursor = local - window
        while let next = nextTransition(after: cursor), next <= local + window {
            changes.append(next)
            candidateOffsets.append(offset(at: next).utcOffset)
            cursor = next
        }
        for utcOffset in Set(candidateOffsets) where offset(at: local - utcOffset).utcOffset == utcOffset {
            instants.append(local - utcOffset)
        }
        instants.sort()
        if instants.count == 1 { return .unique(instants[0]) }
        if let first = instants.first, let last = instants.last { return .repeated(first: first, second: last) }
        for change in changes {
            let before = offset(at: change - 1)
            let after = offset(at: change)
            if change + before.utcOffset <= local, local < change + after.utcOffset {
                return .skipped(transition: change, before: before, after: after)
            }
        }
        // Unreachable for a zone whose offsets are consistent; the nearest reading is the safest answer.
        return .unique(local - offset(at: local).utcOffset)
    }

    /// The wall-clock time at `unixSeconds`, with the type in force.
    public func civilTime(at unixSeconds: Int) -> (time: CivilDateTime, type: LocalTimeType) {
        let unixSeconds = Self.clamped(unixSeconds)
        let type = offset(at: unixSeconds)
        return (CivilDateTime(localSeconds: unixSeconds + type.utcOffset), type)
    }
}
