import Config
import FoundationEssentials
import Providers
import Text

/// `doctor`'s look at the plugins: one that cannot say hello, one the daemon keeps restarting, one gone since the
/// daemon started it. Its widgets show a placeholder or a stale entry, which a user may not connect to the plugin.
extension DoctorCommand {
    static func plugins(configPath: String, environment: [String: String]) -> [Finding] {
        let found = PluginSetup.found(configPath: configPath, environment: environment)
        let statusDirectory = PluginSetup.statusDirectory(
            environment: environment, settings: ConfigLoader.settings(path: configPath))
        var findings: [Finding] = []
        for plugin in found {
            let name = "'" + TerminalText.escaped(plugin.source.name) + "'"
            if plugin.declaration == nil {
                findings.append(
                    Finding(
                        verdict: .error,
                        what: "plugin \(name) is broken: \(TerminalText.escaped(plugin.error ?? "unknown error"))",
                        fix: "'widgetd plugins' shows the end of its standard error; once it is fixed, 'widgetd "
                            + "plugins' runs it again"))
            } else if let status = PluginStatus.read(plugin.source.name, in: statusDirectory),
                status.state == "crashed"
            {
                findings.append(
                    Finding(
                        verdict: .warning,
                        what: "plugin \(name) crashed (\(counted(status.restarts, "restart"))): "
                            + TerminalText.escaped(status.lastError ?? "unknown error"),
                        fix: "'widgetd plugins' shows the end of its standard error; the daemon starts it again"))
            }
        }
        for status in GonePlugins(statusDirectory: statusDirectory).byKind.values.sorted(by: { $0.name < $1.name }) {
            findings.append(
                Finding(
                    verdict: .warning, what: TerminalText.escaped(GonePlugins.note(for: status)),
                    fix: "systemctl --user restart widgetd (or restart 'widgetd run')"))
        }
        if findings.isEmpty, !found.isEmpty {
            findings.append(Finding(verdict: .ok, what: "\(counted(found.count, "plugin")), each says hello"))
        }
        return findings
    }
}
