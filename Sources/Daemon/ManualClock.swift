import FoundationEssentials
import Glibc
import Synchronization

/// A clock the tests set by hand, as NIO's `EmbeddedEventLoop.advanceTime` does: the time stands still until
/// `advance(by:)` moves it, so a deadline, a timeout or a grace period passes without real sleeping.
///
/// A class, so that the daemon, its loop and a test share one; its time is behind a lock, as the provider threads read
/// the clock too (`ProviderRunner`).
final class ManualClock: DaemonClock {
    private let current: Mutex<Date>

    init(_ start: Date) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }

    /// Looks at the time every few milliseconds while the descriptor is not readable: nothing tells a waiter that a
    /// test moved the clock, and a session's thread waits so only for a restart's pause.
    func wait(until deadline: Date, orUntilReadable descriptor: Int32) -> Bool {
        while now < deadline {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 5) > 0 { return true }
        }
        return false
    }

    /// A few milliseconds while the deadline is ahead, for the same reason: the poll's waiter looks at the time again.
    func pollTimeout(until deadline: Date) -> Int32 {
        now < deadline ? 5 : 0
    }
}
