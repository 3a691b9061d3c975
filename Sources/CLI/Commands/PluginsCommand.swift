import Config
import FoundationEssentials
import Glibc
import Kind
import Providers
import Runtime
import Text

/// `widgetd plugins`: the plugins found, the kinds they declare, their versions, and their state as the running daemon
/// last wrote it; under the table, the last lines of standard error of each plugin that failed. Exit 1 when one is
/// broken (it failed to say hello, or a program there is not executable) or gone since the daemon started it: a
/// script or a setup check can tell.
enum PluginsCommand {
    static func run(configPath: String, environment: [String: String], console: Console) -> Int32 {
        let plugins = PluginSetup.found(configPath: configPath, environment: environment)
        let notExecutable = PluginCatalog.notExecutable(environment: environment)
        let statusDirectory = PluginSetup.statusDirectory(
            environment: environment, settings: ConfigLoader.settings(path: configPath))
        let found = Set(plugins.map(\.source.name))
        // A plugin the daemon serves that is no longer found (renamed or removed): its widgets depend on it still.
        let gone = GonePlugins(statusDirectory: statusDirectory).byKind.values.filter { !found.contains($0.name) }
        defer {
            for path in notExecutable {
                let shown = TerminalText.escaped(path)
                console.out("skipped \(shown): not executable (chmod +x \(shown) to make it a plugin)")
            }
        }
        guard !plugins.isEmpty || !gone.isEmpty else {
            console.out(
                "no plugins: put executables in \(PluginCatalog.directories(environment: environment).joined(separator: " or ")) "
                    + "or name them under 'plugins:' in widgets.yaml")
            return notExecutable.isEmpty ? ExitCode.success : ExitCode.failure
        }
        var rows = [["NAME", "KIND", "VERSION", "STATE", "FROM", "LAST ERROR"]]
        // What each plugin that failed wrote on its standard error last, shown under the table.
        var standardErrors: [(name: String, lines: [String])] = []
        for plugin in plugins {
            let status = PluginStatus.read(plugin.source.name, in: statusDirectory)
            let state: String
            if plugin.declaration == nil {
                state = "broken"
                standardErrors.append((plugin.source.name, plugin.standardError))
            } else if let status, status.state == "running", let pid = status.pid, kill(pid_t(pid), 0) != 0,
                errno == ESRCH
            {
                // Written by a daemon that is gone (killed before it could say so).
                state = "not running"
            } else if let status {
                state = status.state + (status.restarts > 0 ? " (\(status.restarts) restarts)" : "")
                if status.state == "crashed" { standardErrors.append((plugin.source.name, status.standardError ?? [])) }
            } else {
                // Declared, and started by the daemon with the first widget of its kind.
                state = "ready"
            }
            // A file's name and a plugin's version and errors are outsiders' text: escaped, as `list` escapes its own.
            rows.append(
                [
                    plugin.source.name, plugin.declaration?.name ?? "-",
                    status?.version ?? plugin.declaration.map { $0.version.isEmpty ? "-" : $0.version } ?? "-", state,
                    plugin.source.origin, plugin.error ?? status?.lastError ?? "-",
                ].map(TerminalText.escaped))
        }
        for status in gone.sorted(by: { $0.name < $1.name }) {
            rows.append(
                [status.name, status.kind, status.version ?? "-", "gone", "-", GonePlugins.note(for: status)].map(
                    TerminalText.escaped))
        }
        let widths = rows[0].indices.map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1
                    ? cell : cell + String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
            }
            console.out(cells.joined(separator: "  "))
        }
        for (name, lines) in standardErrors where !lines.isEmpty {
            console.out("")
            console.out("\(TerminalText.escaped(name)): the last lines of its standard error:")
            for line in lines { console.out("  " + TerminalText.escaped(line)) }
        }
        let broken = plugins.contains { $0.declaration == nil } || !gone.isEmpty || !notExecutable.isEmpty
        return broken ? ExitCode.failure : ExitCode.success
    }
}

/// How the CLI and the daemon learn the plugin kinds: the plugin directories and `plugins:`, through the declaration
/// cache.
enum PluginSetup {
    /// Every plugin, each one that failed before run again, however it failed: `widgetd plugins` is where a user
    /// looks after fixing one, and must never show a failure that is no longer true.
    static func found(configPath: String, environment: [String: String]) -> [FoundPlugin] {
        PluginCatalog.load(
            environment: environment, configured: ConfigLoader.plugins(path: configPath),
            builtIn: KindRegistry.standard(store: StoreAccess(path: "/dev/null")).names, retrying: .failures)
    }

    /// The built-in kinds, then the plugins' kinds, as a command sees them (the daemon loads its own:
    /// `DaemonPlugins`).
    static func registry(standard: KindRegistry, configPath: String, environment: [String: String]) -> KindRegistry {
        registry(standard: standard, configured: ConfigLoader.plugins(path: configPath), environment: environment)
    }

    /// The built-in kinds, then the kinds of the plugin directories and of `configured` (a `plugins:` section).
    static func registry(standard: KindRegistry, configured: [PluginCommand], environment: [String: String])
        -> KindRegistry
    {
        standard.adding(PluginCatalog.load(environment: environment, configured: configured, builtIn: standard.names))
    }

    /// Where the daemon writes one status file per plugin (`DaemonPaths.plugins`).
    static func statusDirectory(environment: [String: String], settings: Settings) -> String {
        DaemonPaths(environment: environment, settings: settings).plugins
    }
}
