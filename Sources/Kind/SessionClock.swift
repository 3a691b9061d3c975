import FoundationEssentials
import Glibc

/// Where a session (a provider that keeps running, as a persistent command does) reads the time and waits for it:
/// the daemon's clock, so that a restart's pause passes when the daemon's time does, on the wall clock or on the one
/// a test moves.
public protocol SessionClock: Sendable {
    var now: Date { get }
    /// Waits until `deadline` on this clock or until `descriptor` is readable, whichever comes first; true when the
    /// descriptor is readable.
    func wait(until deadline: Date, orUntilReadable descriptor: Int32) -> Bool
    /// How long, in milliseconds, a `poll` that waits for other descriptors too may sleep before `deadline` on this
    /// clock may have passed: 0 once it has.
    func pollTimeout(until deadline: Date) -> Int32
}

/// The wall clock (`Date()`): a wait is a `poll` on the descriptor until the deadline.
public struct WallSessionClock: SessionClock {
    public init() {}

    public var now: Date { Date() }

    public func wait(until deadline: Date, orUntilReadable descriptor: Int32) -> Bool {
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return false }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, Int32((remaining * 1000).rounded(.up))) > 0 { return true }
        }
    }

    /// The time left, up to an hour (a deadline far off is looked at again then).
    public func pollTimeout(until deadline: Date) -> Int32 {
        max(0, Int32(min(deadline.timeIntervalSinceNow * 1000, 3_600_000).rounded(.up)))
    }
}
