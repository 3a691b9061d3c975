import FoundationEssentials

/// When the updates socket's listener is not polled. An `accept` that fails for want of a resource (the process out
/// of descriptors, `EMFILE`; the system's, `ENFILE`; buffers, `ENOBUFS`) leaves the connection waiting, so the
/// listener is readable again at once: polled on, it would wake every turn for a call that fails again, a spinning
/// loop and a log line per turn. After such a failure the listener rests for `pause` on the daemon's clock, and is
/// tried again then; the failures in a row are one episode, logged when it starts and when an `accept` works again.
struct AcceptPause {
    /// How long the listener rests after a failed `accept`: a client that connects meanwhile waits at most this long,
    /// and only while the daemon lacks what a connection needs.
    static let pause: TimeInterval = 1

    /// When the listener is polled again; nil while it is.
    private(set) var resumesAt: Date?
    /// The failed `accept`s of this episode; 0 when none is under way.
    private(set) var failures = 0

    var isResting: Bool { resumesAt != nil }

    /// An `accept` failed at `now`: the listener rests. True when this failure starts an episode.
    mutating func failed(now: Date) -> Bool {
        failures += 1
        resumesAt = now.addingTimeInterval(Self.pause)
        return failures == 1
    }

    /// The listener is polled again once its rest is over; true when it was resting until `now`.
    mutating func resumeIfDue(now: Date) -> Bool {
        guard let resumesAt, resumesAt <= now else { return false }
        self.resumesAt = nil
        return true
    }

    /// An `accept` worked (or found nothing waiting): the episode, if one was under way, is over. Returns how many
    /// `accept`s failed in it; nil when none was.
    mutating func worked() -> Int? {
        defer { failures = 0 }
        return failures > 0 ? failures : nil
    }
}
