import FoundationEssentials

/// Where the daemon's loop reads the time: the system's wall clock, or in tests one they set by hand, so a deadline can
/// pass without real sleeping (as NIO's `EmbeddedEventLoop.advanceTime` does).
protocol DaemonClock: Sendable {
    var now: Date { get }
}

/// The wall clock (`Date()`): deadlines are wall-clock instants (DESIGN §3).
struct SystemClock: DaemonClock {
    var now: Date { Date() }
}
