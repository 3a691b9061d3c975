import FoundationEssentials
import Output
import Runtime

/// `widgetd import i3status [FILE]`: prints widgets.yaml for an i3status config, the i3 `bar {}` block that shows it
/// as comments at the end (the YAML is usually redirected to a file, and the block belongs in another one).
extension ImportCommand {
    static func runI3status(file: String?, environment: [String: String], console: Console) -> Int32 {
        let candidates = file.map { [$0] } ?? i3statusSearchPath(environment: environment)
        guard let path = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else {
            console.err(
                "widgetd: error: no i3status config found; looked at \(candidates.joined(separator: ", "))")
            return ExitCode.failure
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            console.err("widgetd: error: cannot read \(path)")
            return ExitCode.failure
        }
        let yaml = I3statusImport.translate(String(decoding: data, as: UTF8.self), path: path)
        console.out(String(yaml.dropLast()))
        return ExitCode.success
    }

    /// i3status' search path (i3status.c, `get_config_path`): `$XDG_CONFIG_HOME/i3status/config` (or `~/.config/…`),
    /// `$XDG_CONFIG_DIRS/i3status/config` (or `/etc/xdg/…`), `~/.i3status.conf`, `/etc/i3status.conf`.
    static func i3statusSearchPath(environment: [String: String]) -> [String] {
        var paths: [String] = []
        if let home = environment["HOME"] {
            paths.append((environment["XDG_CONFIG_HOME"] ?? home + "/.config") + "/i3status/config")
        }
        let directories = (environment["XDG_CONFIG_DIRS"] ?? "/etc/xdg").split(separator: ":").map(String.init)
        paths += directories.map { $0 + "/i3status/config" }
        if let home = environment["HOME"] { paths.append(home + "/.i3status.conf") }
        paths.append("/etc/i3status.conf")
        return paths
    }
}
