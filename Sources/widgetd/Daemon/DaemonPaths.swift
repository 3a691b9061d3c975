import Basics
import Config
import Control
import FoundationEssentials

/// Where the daemon keeps its files, from the XDG base directories and `settings:`.
struct DaemonPaths: Sendable {
    /// `$XDG_RUNTIME_DIR/widgetd` (else `/tmp/widgetd-$UID`): the FIFO, the lock, acknowledgements.
    var control: ControlPaths
    /// Rendered entries for bars: `settings.output_dir`, else `<runtime dir>/out`.
    var output: String
    /// `$XDG_STATE_HOME/widgetd` (else `~/.local/state/widgetd`): last entries kept across restarts.
    var state: String

    init(environment: [String: String], settings: Settings) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? Path.homeDirectory()
        control = ControlPaths(environment: environment)
        output = settings.outputDirectory.map { Self.expandingTilde($0, home: home) } ?? control.directory + "/out"
        if let stateHome = environment["XDG_STATE_HOME"], stateHome.hasPrefix("/") {
            state = stateHome + "/widgetd"
        } else {
            state = home + "/.local/state/widgetd"
        }
    }

    /// The current-entry records kept across restarts, one file per instance.
    var entries: String { state + "/entries" }
    /// What `widgetd list` reads: one status file per instance.
    var status: String { control.directory + "/status" }
    /// What `widgetd plugins` reads: one status file per plugin (beside `status`, which holds only instances').
    var plugins: String { control.directory + "/plugins" }

    static func expandingTilde(_ path: String, home: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }
}
