import Config
import Control
import FoundationEssentials
import Glibc
import Kind
import Runtime
import Text

/// `widgetd status`: the daemon in one screen, like `systemctl status`: running or not, its config and whether the
/// file still checks, where it writes and listens, and each widget's state.
enum StatusCommand {
    static func run(configPath: String, registry: KindRegistry, environment: [String: String], console: Console)
        -> Int32
    {
        let control = ControlPaths(environment: environment)
        guard let daemon = DaemonState.running(in: control) else {
            console.out("widgetd: not running")
            let loaded = ConfigLoader.load(path: configPath, registry: registry)
            console.out("config:   \(configPath) (\(summary(of: loaded)))")
            console.out("start it: systemctl --user start widgetd, or widgetd run")
            return ExitCode.notRunning
        }
        let loaded = ConfigLoader.load(path: daemon.config, registry: registry)
        let paths = RunningDaemon.paths(
            environment: environment, settings: loaded.configuration?.settings ?? Settings())
        console.out("widgetd: running (pid \(daemon.pid), since \(daemon.startedAt))")
        if loaded.configuration == nil, daemon.configErrors == 0 {
            // The daemon applied this file: its widgets of a plugin that failed to load wait for the plugin there
            // (`DaemonPlugins`), where this check finds their kind missing.
            console.out(
                "config:   \(daemon.config) (\(summary(of: loaded)) here, but the daemon runs it: widgets whose plugin "
                    + "failed to load wait for it there; '\(ConfigPath.checkCommand(for: daemon.config, environment: environment))' "
                    + "shows the errors)")
        } else if loaded.configuration == nil {
            console.out(
                "config:   \(daemon.config) (\(summary(of: loaded)); running the previous config; "
                    + "'\(ConfigPath.checkCommand(for: daemon.config, environment: environment))' shows the errors)")
        } else if daemon.configErrors > 0 {
            // It checks here but not in the daemon: a plugin kind installed since the daemon started, or a save the
            // daemon read before it was finished and nothing since.
            console.out(
                "config:   \(daemon.config) (\(summary(of: loaded)) here, but the daemon found "
                    + "\(counted(daemon.configErrors, "error")) and runs the previous config: its log names them; "
                    + "a plugin added since it started needs a restart)")
        } else {
            console.out("config:   \(daemon.config) (\(summary(of: loaded)))")
        }
        // Both spellings of one file ("config/widgets.yaml" and its absolute path) are the same config.
        if canonical(configPath) != canonical(daemon.config) {
            console.out("          (not \(configPath): one daemon runs per user, and this one reads the file above)")
        }
        console.out("outputs:  \(daemon.output)")
        console.out("control:  \(control.fifo)")
        console.out("logs:     journalctl --user -u widgetd under systemd, else its standard error")
        console.out("")
        let widgets =
            loaded.configuration.map { WidgetTable.rows(of: $0, registry: registry) }
            ?? WidgetTable.rows(inOutput: paths.output)
        for line in WidgetTable.compactLines(widgets, paths: paths, now: Date(), zone: .current) { console.out(line) }
        return ExitCode.success
    }

    /// `path` with symbolic links, `.` and `..` resolved; as given when it cannot be resolved.
    static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func summary(of loaded: ConfigLoadResult) -> String {
        if let configuration = loaded.configuration {
            return "OK, \(counted(configuration.widgets.count, "widget"))"
        }
        return loaded.errorSummary
    }
}
