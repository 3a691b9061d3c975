import Config
import FoundationEssentials
import Glibc
import Kind
import Providers
import Text

/// `widgetd plugins`: the plugins found, the kinds they declare, their versions, and their state as the running daemon
/// last wrote it.
enum PluginsCommand {
    static func run(configPath: String, environment: [String: String], console: Console) -> Int32 {
        let plugins = PluginSetup.found(configPath: configPath, environment: environment)
        defer {
            for path in PluginCatalog.notExecutable(environment: environment) {
                let shown = TerminalText.escaped(path)
                console.out("skipped \(shown): not executable (chmod +x \(shown) to make it a plugin)")
            }
        }
        guard !plugins.isEmpty else {
            console.out(
                "no plugins: put executables in \(PluginCatalog.directories(environment: environment).joined(separator: " or ")) "
                    + "or name them under 'plugins:' in widgets.yaml")
            return ExitCode.success
        }
        let statusDirectory = PluginSetup.statusDirectory(
            environment: environment, settings: ConfigLoader.settings(path: configPath))
        var rows = [["NAME", "KIND", "VERSION", "STATE", "FROM", "LAST ERROR"]]
        for plugin in plugins {
            let status = PluginStatus.read(plugin.source.name, in: statusDirectory)
            let state: String
            if plugin.declaration == nil {
                state = "broken"
            } else if let status, status.state == "running", let pid = status.pid, kill(pid_t(pid), 0) != 0,
                errno == ESRCH
            {
                // Written by a daemon that is gone (killed before it could say so).
                state = "not running"
            } else if let status {
                state = status.state + (status.restarts > 0 ? " (\(status.restarts) restarts)" : "")
            } else {
                state = "not started"
            }
            // A file's name and a plugin's version and errors are outsiders' text: escaped, as `list` escapes its own.
            rows.append(
                [
                    plugin.source.name, plugin.declaration?.name ?? "-",
                    status?.version ?? plugin.declaration.map { $0.version.isEmpty ? "-" : $0.version } ?? "-", state,
                    plugin.source.origin, plugin.error ?? status?.lastError ?? "-",
                ].map(TerminalText.escaped))
        }
        let widths = rows[0].indices.map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1
                    ? cell : cell + String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
            }
            console.out(cells.joined(separator: "  "))
        }
        return ExitCode.success
    }
}

/// How the CLI and the daemon learn the plugin kinds: the plugin directories and `plugins:`, through the declaration
/// cache.
enum PluginSetup {
    /// Every plugin, each one a command found silent before tried again: `widgetd plugins` is where a user looks.
    static func found(configPath: String, environment: [String: String]) -> [FoundPlugin] {
        PluginCatalog.load(
            environment: environment, configured: ConfigLoader.plugins(path: configPath),
            builtIn: KindRegistry.standard(store: StoreAccess(path: "/dev/null")).names, retrying: .timeouts)
    }

    /// The built-in kinds, then the plugins' kinds, as a command sees them (the daemon loads its own:
    /// `DaemonPlugins`).
    static func registry(standard: KindRegistry, configPath: String, environment: [String: String]) -> KindRegistry {
        standard.adding(
            PluginCatalog.load(
                environment: environment, configured: ConfigLoader.plugins(path: configPath), builtIn: standard.names))
    }

    /// Where the daemon writes one status file per plugin (`DaemonPaths.plugins`).
    static func statusDirectory(environment: [String: String], settings: Settings) -> String {
        DaemonPaths(environment: environment, settings: settings).plugins
    }
}
