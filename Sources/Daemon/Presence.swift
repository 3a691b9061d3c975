import FoundationEssentials
import Runtime
import Text
import TimeZones
import Timelines

/// What the daemon tells others about itself, and when: the state file the CLI reads (`DaemonState`), and systemd's
/// notifications (sd_notify(3)): ready after the first paint, reloading and ready again around a config reload,
/// stopping, and the watchdog's keep-alive every half of `WATCHDOG_USEC` (`Watchdog`).
///
/// It holds what those say (when the daemon started, the errors of the last reload) and the watchdog's timing, and
/// words the messages; the daemon sends them (`SystemdNotifier`) and writes the file (`StateFiles`, `Daemon+Presence`).
struct Presence {
    /// When the daemon started, from its clock, for `daemon.json`.
    let startedAt: Date
    /// Errors in the config file at the last reload; non-zero while the daemon runs an older config.
    private(set) var configErrors = 0
    /// systemd's watchdog, when it asked for one.
    private(set) var watchdog: Watchdog?

    init(startedAt: Date, watchdog: Watchdog?) {
        self.startedAt = startedAt
        self.watchdog = watchdog
    }

    /// The first paint is written: the bars have something to show.
    func ready(widgets: Int, configPath: String, pid: Int32) -> [String] {
        ["READY=1", "STATUS=\(statusLine(widgets: widgets, configPath: configPath))", "MAINPID=\(pid)"]
    }

    /// A config reload starts: systemd shows the service as reloading until `reloaded`. `monotonicMicroseconds` tells
    /// this reload from an older one.
    static func reloading(monotonicMicroseconds: UInt64) -> [String] {
        ["RELOADING=1", "MONOTONIC_USEC=\(monotonicMicroseconds)"]
    }

    /// A config reload ended: applied (`errors` 0), or refused with `errors` mistakes in the file.
    mutating func reloaded(errors: Int, widgets: Int, configPath: String) -> [String] {
        configErrors = errors
        return ["READY=1", "STATUS=\(statusLine(widgets: widgets, configPath: configPath))"]
    }

    static let stopping = ["STOPPING=1"]

    /// The watchdog's keep-alive if it is due at `instant` (counted as sent then), else nil.
    mutating func keepAlive(at instant: ContinuousClock.Instant = .now) -> [String]? {
        guard watchdog?.isDue(at: instant) == true else { return nil }
        watchdog?.sent(at: instant)
        return ["WATCHDOG=1"]
    }

    /// When the next keep-alive is due, as an instant of the daemon's clock at `now`; nil with no watchdog.
    func keepAliveDue(now: Date, at instant: ContinuousClock.Instant = .now) -> Date? {
        watchdog?.due(now: now, at: instant)
    }

    /// `daemon.json`'s contents. `config`: the config's path, absolute.
    func state(pid: Int32, config: String, output: String, store: String) -> DaemonState {
        DaemonState(
            pid: pid, config: config, output: output, startedAt: ISO8601Text.format(startedAt, in: .current),
            configErrors: configErrors, store: store)
    }

    /// What `systemctl status` shows beside the service.
    func statusLine(widgets: Int, configPath: String) -> String {
        let widgetCount = counted(widgets, "widget")
        guard configErrors > 0 else { return widgetCount }
        return "\(widgetCount); \(configPath) has \(counted(configErrors, "error")), running the previous config"
    }
}
