import FoundationEssentials
import Kind

/// Where the daemon reads the time: the system's wall clock, or in tests one they set by hand (`ManualClock`), so a
/// deadline can pass without real sleeping (as NIO's `EmbeddedEventLoop.advanceTime` does).
///
/// The daemon holds one and hands it to its loop and its provider runner; every part that needs the time is given it
/// or `now`. Only systemd's measures stay on the monotonic clock (`Watchdog`'s interval, `SystemdNotifier`'s
/// `MONOTONIC_USEC`): systemd counts them in real time, whatever the daemon's clock says.
protocol DaemonClock: SessionClock {}

/// The wall clock (`Date()`): deadlines are wall-clock instants (DESIGN §3).
struct SystemClock: DaemonClock {
    private let wall = WallSessionClock()

    var now: Date { wall.now }

    func wait(until deadline: Date, orUntilReadable descriptor: Int32) -> Bool {
        wall.wait(until: deadline, orUntilReadable: descriptor)
    }

    func pollTimeout(until deadline: Date) -> Int32 {
        wall.pollTimeout(until: deadline)
    }
}
