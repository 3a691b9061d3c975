import Config
import Control
import FoundationEssentials
import Kind
import Runtime
import Text

/// `widgetd list`: each instance of the running daemon with what it shows now and when it reloads next.
///
/// Only the running daemon's texts are current: with no daemon, the files left behind are old, so `list` says the
/// daemon is not running (exit 3) instead of showing them. The widgets are those of the config the daemon runs
/// (`WidgetSource`), in its order, whatever widgets.yaml says now; when the file was edited into errors, `list` says so.
enum ListCommand {
    static func run(registry: KindRegistry, environment: [String: String], console: Console) -> Int32 {
        guard let daemon = DaemonState.running(in: ControlPaths(environment: environment)) else {
            console.err(RunningDaemon.notRunningMessage)
            return ExitCode.notRunning
        }
        let file = ConfigLoader.load(path: daemon.config, registry: registry)
        if file.configuration == nil {
            console.err(
                "widgetd: running an older config; \(daemon.config) has \(file.errorSummary) "
                    + "('\(ConfigPath.checkCommand(for: daemon.config, environment: environment))' shows them)")
        }
        let source = WidgetSource(configPath: daemon.config, environment: environment)
        let paths = RunningDaemon.paths(environment: environment, settings: source.settings)
        // The records the daemon writes name the widgets too, when its config does not check here (a kind this
        // command does not see) or the daemon has not written its copy.
        let widgets =
            source.load(registry: registry).configuration.map { WidgetTable.rows(of: $0, registry: registry) }
            ?? WidgetTable.rows(inOutput: paths.output)
        for line in WidgetTable.lines(widgets, paths: paths) { console.out(line) }
        return ExitCode.success
    }
}
