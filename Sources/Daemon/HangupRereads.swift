import FoundationEssentials

/// When to re-read the config for the SIGHUPs taken: at once, unless the last re-read was less than `spacing` ago, then
/// once that has passed. Any number of SIGHUPs before a re-read make one, and none taken is lost: one that comes while
/// a re-read waits is answered by it, and one after a re-read makes another.
struct HangupRereads {
    /// The least time between two re-reads: a storm of SIGHUPs (`pkill -HUP` in a loop) must not keep the loop parsing
    /// widgets.yaml.
    static let spacing: TimeInterval = 1

    /// When the next re-read is due; nil when no SIGHUP waits for one.
    private(set) var due: Date?
    private var last: Date?

    /// A SIGHUP (or a batch of them) was taken at `now`.
    mutating func taken(now: Date) {
        due = max(now, (last ?? .distantPast).addingTimeInterval(Self.spacing))
    }

    /// Whether a re-read is due at `now`; if so it counts as done then, and nothing waits any more.
    mutating func takeDue(now: Date) -> Bool {
        guard let due, due <= now else { return false }
        self.due = nil
        last = now
        return true
    }
}
