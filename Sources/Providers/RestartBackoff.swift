import FoundationEssentials

/// How long a supervised process that ended (a persistent command, a plugin) waits before it is started again: `first`,
/// doubling with each end in a row up to `maximum`, so a process that crashes at once costs a spawn a minute at most.
/// One that ran longer than `maximum` before it ended is not crash-looping: it waits `first` again.
///
/// Its own state and no I/O: the supervisor passes the times and does the waiting on its own thread, so the rule is
/// tested on a clock set by hand.
struct RestartBackoff: Equatable, Sendable {
    static let first: TimeInterval = 1
    static let maximum: TimeInterval = 60

    /// The wait before the next start.
    private(set) var delay: TimeInterval = Self.first

    /// A run that started at `started` ended at `now`: the wait before the next start, which a long run brings back to
    /// `first`.
    mutating func ended(startedAt started: Date, now: Date) -> TimeInterval {
        if now.timeIntervalSince(started) > Self.maximum { delay = Self.first }
        return delay
    }

    /// A wait was served, or a start failed: the next wait is twice as long, up to `maximum`.
    mutating func lengthen() {
        delay = min(delay * 2, Self.maximum)
    }

    /// A run ended as it should (`interval: repeat`'s clean exit): the next failure waits `first`.
    mutating func reset() {
        delay = Self.first
    }
}
