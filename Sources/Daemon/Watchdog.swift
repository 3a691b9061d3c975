import FoundationEssentials
import Glibc

/// When to tell systemd's watchdog the loop is alive: every half of `WATCHDOG_USEC`, as sd_watchdog_enabled(3)
/// advises.
///
/// The keep-alive is sent by the loop itself, as one more deadline on its timer, so a loop that hangs stops sending
/// and systemd restarts the service; a thread of its own would keep sending for a hung loop. Elapsed time is measured
/// on the monotonic clock: a wall clock set back an hour must not hold the keep-alive back an hour. Each reading of it
/// is a parameter that defaults to now, so tests pass instants of their own.
struct Watchdog {
    let interval: Duration
    private var lastSent: ContinuousClock.Instant

    /// The watchdog systemd asked for, or nil: `WATCHDOG_USEC` unset or not a positive number, or `WATCHDOG_PID`
    /// set to another process (a child that inherited the environment must not answer for its parent).
    init?(environment: [String: String], pid: Int32 = getpid(), at instant: ContinuousClock.Instant = .now) {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0 else {
            return nil
        }
        if let owner = environment["WATCHDOG_PID"], !owner.isEmpty, Int32(owner) != pid { return nil }
        interval = .microseconds(Int64(clamping: microseconds / 2))
        lastSent = instant
    }

    /// The wall-clock instant the next keep-alive is due, from the daemon's `now`, for the loop's timer; worked out
    /// again at every wake-up.
    func due(now: Date, at instant: ContinuousClock.Instant = .now) -> Date {
        let remaining = interval - (instant - lastSent)
        let seconds = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) * 1e-18
        return now.addingTimeInterval(max(0, seconds))
    }

    /// Whether a keep-alive is due at `instant`.
    func isDue(at instant: ContinuousClock.Instant = .now) -> Bool {
        instant - lastSent >= interval
    }

    mutating func sent(at instant: ContinuousClock.Instant = .now) {
        lastSent = instant
    }
}
