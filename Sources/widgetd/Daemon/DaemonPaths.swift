import Foundation
import Scheduler

/// Where the daemon keeps its files, from the XDG base directories.
struct DaemonPaths: Sendable {
    /// `$XDG_RUNTIME_DIR/widgetd`, else `/tmp/widgetd-$UID`: the FIFO, the lock, acknowledgements.
    var runtime: String
    /// Rendered entries for bars.
    var output: String
    /// `$XDG_STATE_HOME/widgetd`, else `~/.local/state/widgetd`: last entries kept across restarts.
    var state: String

    init(environment: [String: String], settings: Settings) {
        let home = environment["HOME"] ?? NSHomeDirectory()
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            self.runtime = runtime + "/widgetd"
        } else {
            self.runtime = "/tmp/widgetd-\(getuid())"
        }
        output = settings.outputDirectory.map { Self.expandingTilde($0, home: home) } ?? runtime + "/out"
        if let stateHome = environment["XDG_STATE_HOME"], stateHome.hasPrefix("/") {
            state = stateHome + "/widgetd"
        } else {
            state = home + "/.local/state/widgetd"
        }
    }

    var fifo: String { runtime + "/control" }
    var acknowledgements: String { runtime + "/acks" }

    static func expandingTilde(_ path: String, home: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }
}
