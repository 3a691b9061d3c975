import FoundationEssentials
import Glibc
import Providers

/// Plugins the running daemon serves whose files are gone since it started them (renamed or removed from the plugin
/// directory): the daemon keeps the process it has, but does not start it again until the file is back, and it
/// learns of new plugin files only when it starts. `plugins`, `status` and `list` say so beside the plugin and its widgets.
struct GonePlugins {
    /// The daemon's status of each gone plugin, by the kind it serves.
    let byKind: [String: PluginStatus]

    /// The plugins whose status files in `statusDirectory` (`DaemonPaths.plugins`) name a file that no longer exists.
    init(statusDirectory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: statusDirectory)) ?? []
        var byKind: [String: PluginStatus] = [:]
        for file in names.sorted() where file.hasPrefix("plugin-") && file.hasSuffix(".json") {
            let name = String(file.dropFirst("plugin-".count).dropLast(".json".count))
            guard let status = PluginStatus.read(name, in: statusDirectory), status.state != "stopped",
                Self.isGone(status)
            else { continue }
            byKind[status.kind] = status
        }
        self.byKind = byKind
    }

    /// Whether a file the plugin's command names by its path is missing now.
    static func isGone(_ status: PluginStatus) -> Bool {
        PluginHost.missingFile(in: status.argv ?? []) != nil
    }

    /// What a widget of `kind` is told, or nil when its plugin (if any) is still there.
    func note(forKind kind: String) -> String? {
        byKind[kind].map { Self.note(for: $0) }
    }

    /// `plugin 'pomodoro' is gone (…/pomodoro was renamed or removed since the daemon started it): …`, the words that
    /// matter first: `status` cuts the line at its terminal's width.
    static func note(for status: PluginStatus) -> String {
        let missing = (status.argv ?? []).first { $0.hasPrefix("/") && access($0, F_OK) != 0 } ?? "its file"
        return "plugin '\(status.name)' is gone (\(missing) was renamed or removed since the daemon started it): its "
            + "widgets go stale when it exits, until the file is back; restart the daemon to use the plugin under its "
            + "new name"
    }
}
