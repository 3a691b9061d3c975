import Config
import Control
import FoundationEssentials
import Runtime

/// Where the CLI finds the running daemon: its state file (`DaemonState`) wins over the config the command was given,
/// so `show`, `list`, `click` and `reload` read the files the daemon writes, not those an edited or other config
/// names.
enum RunningDaemon {
    /// The running daemon's config when one runs, else the one resolved from `--config` and the environment.
    static func configPath(explicit: String?, environment: [String: String]) -> String {
        if let state = DaemonState.running(in: ControlPaths(environment: environment)) { return state.config }
        return ConfigPath.resolve(explicit: explicit, environment: environment)
    }

    /// The paths of `settings`, with the running daemon's output directory when one runs.
    static func paths(environment: [String: String], settings: Settings) -> DaemonPaths {
        var paths = DaemonPaths(environment: environment, settings: settings)
        if let state = DaemonState.running(in: paths.control) { paths.output = state.output }
        return paths
    }

    static let notRunningMessage =
        "widgetd: daemon not running; start it with 'systemctl --user start widgetd' or 'widgetd run'"
}
