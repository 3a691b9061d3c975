import FoundationEssentials
import Glibc
import Runtime
import Text
import TimeZones
import Timelines

/// How the daemon tells others where it is and how it is doing: the state file the CLI reads (`DaemonState`) and
/// systemd's notifications (`SystemdNotifier`, `Watchdog`).
extension Daemon {
    /// The first paint is written: the bars have something to show, so the service is ready.
    func announceStarted() {
        // Before `daemon.json`: a CLI that finds this daemon finds the config it runs.
        stateFiles.writeRunningConfig(runningConfigText, now: clock.now)
        writeState()
        notifier?.send(["READY=1", "STATUS=\(statusLine)", "MAINPID=\(getpid())"])
    }

    /// A config reload starts; systemd shows the service as reloading until `announceReloaded`.
    func announceReloading() {
        notifier?.send(["RELOADING=1", "MONOTONIC_USEC=\(SystemdNotifier.monotonicMicroseconds())"])
    }

    /// A config reload ended: applied (`errors` 0), or refused with `errors` mistakes in the file.
    func announceReloaded(errors: Int) {
        configErrors = errors
        writeState()
        notifier?.send(["READY=1", "STATUS=\(statusLine)"])
    }

    /// The daemon is stopping: systemd is told, and the state file goes if it is still this daemon's.
    func announceStopping() {
        notifier?.send(["STOPPING=1"])
        stateFiles.removeDaemonState()
    }

    /// Sends the watchdog keep-alive when it is due; called from the loop's housekeeping.
    func keepWatchdogAlive() {
        guard watchdog?.isDue == true else { return }
        notifier?.send(["WATCHDOG=1"])
        watchdog?.sent()
    }

    /// Writes `daemon.json` (`DaemonState`) through `StateFiles`: a failure is logged and retried, the daemon goes on
    /// (the CLI then falls back on the config's paths).
    func writeState() {
        let directory = FileManager.default.currentDirectoryPath
        let config = configPath.hasPrefix("/") ? configPath : directory + "/" + configPath
        let state = DaemonState(
            pid: getpid(), config: config, output: paths.output,
            startedAt: ISO8601Text.format(startedAt, in: .current), configErrors: configErrors, store: storePath)
        stateFiles.write(state, now: clock.now)
    }

    /// What `systemctl status` shows beside the service.
    private var statusLine: String {
        let widgets = counted(engine.instanceNames.count, "widget")
        guard configErrors > 0 else { return widgets }
        return "\(widgets); \(configPath) has \(counted(configErrors, "error")), running the previous config"
    }
}
