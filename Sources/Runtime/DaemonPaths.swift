import Basics
import Config
import Control
import FoundationEssentials

/// Where the daemon keeps its files, from the XDG base directories and `settings:`.
public struct DaemonPaths: Sendable {
    /// `$XDG_RUNTIME_DIR/widgetd` (else `/tmp/widgetd-$UID`): the FIFO, the lock, acknowledgements.
    public var control: ControlPaths
    /// Rendered entries for bars: `settings.output_dir`, else `<runtime dir>/out`.
    public var output: String
    /// `$XDG_STATE_HOME/widgetd` (else `~/.local/state/widgetd`): last entries kept across restarts.
    public var state: String

    public init(environment: [String: String], settings: Settings) {
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
    public var entries: String { state + "/entries" }
    /// What `widgetd list` reads: one status file per instance.
    public var status: String { control.directory + "/status" }
    /// What `widgetd plugins` reads: one status file per plugin (beside `status`, which holds only instances').
    public var plugins: String { control.directory + "/plugins" }

    public static func expandingTilde(_ path: String, home: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }
}
