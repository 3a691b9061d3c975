import Config
import Control
import FoundationEssentials
import Kind
import Text

/// `widgetd list`: each instance of the running daemon with what it shows now and when it reloads next.
///
/// Only the running daemon's texts are current: with no daemon, the files left behind are old, so `list` says the
/// daemon is not running (exit 3) instead of showing them. When widgets.yaml was edited into errors, the daemon still
/// runs the older config: `list` says so and shows what the daemon runs.
enum ListCommand {
    static func run(registry: KindRegistry, environment: [String: String], console: Console) -> Int32 {
        guard let daemon = DaemonState.running(in: ControlPaths(environment: environment)) else {
            console.err(RunningDaemon.notRunningMessage)
            return ExitCode.notRunning
        }
        let loaded = ConfigLoader.load(path: daemon.config, registry: registry)
        let settings = loaded.configuration?.settings ?? Settings()
        let paths = RunningDaemon.paths(environment: environment, settings: settings)
        let widgets: [WidgetTable.Row]
        if let configuration = loaded.configuration {
            widgets = WidgetTable.rows(of: configuration)
        } else {
            console.err(
                "widgetd: running an older config; \(daemon.config) has \(loaded.errorSummary) "
                    + "('\(ConfigPath.checkCommand(for: daemon.config, environment: environment))' shows them)")
            widgets = WidgetTable.rows(inOutput: paths.output)
        }
        for line in WidgetTable.lines(widgets, paths: paths) { console.out(line) }
        return ExitCode.success
    }
}
