import FoundationEssentials
import Glibc

/// How the daemon tells others where it is and how it is doing: `Presence` words it, this sends it to systemd
/// (`SystemdNotifier`) and writes the state file the CLI reads.
extension Daemon {
    /// The first paint is written: the bars have something to show, so the service is ready.
    func announceStarted() {
        // Before `daemon.json`: a CLI that finds this daemon finds the config it runs.
        stateFiles.writeRunningConfig(runningConfigText, now: clock.now)
        writeState()
        notifier?.send(presence.ready(widgets: engine.instanceNames.count, configPath: configPath, pid: getpid()))
    }

    /// A config reload starts; systemd shows the service as reloading until `announceReloaded`.
    func announceReloading() {
        notifier?.send(Presence.reloading(monotonicMicroseconds: SystemdNotifier.monotonicMicroseconds()))
    }

    /// A config reload ended: applied (`errors` 0), or refused with `errors` mistakes in the file.
    func announceReloaded(errors: Int) {
        let message = presence.reloaded(errors: errors, widgets: engine.instanceNames.count, configPath: configPath)
        writeState()
        notifier?.send(message)
    }

    /// The daemon is stopping: systemd is told, and the state file goes if it is still this daemon's.
    func announceStopping() {
        notifier?.send(Presence.stopping)
        stateFiles.removeDaemonState()
    }

    /// Sends the watchdog keep-alive when it is due; called from the loop's housekeeping.
    func keepWatchdogAlive() {
        guard let message = presence.keepAlive() else { return }
        notifier?.send(message)
    }

    /// Writes `daemon.json` (`DaemonState`) through `StateFiles`: a failure is logged and retried, the daemon goes on
    /// (the CLI then falls back on the config's paths).
    func writeState() {
        let directory = FileManager.default.currentDirectoryPath
        let config = configPath.hasPrefix("/") ? configPath : directory + "/" + configPath
        stateFiles.write(
            presence.state(pid: getpid(), config: config, output: paths.output, store: storePath), now: clock.now)
    }
}
