/// Where widgets.yaml is: `--config`, then `$WIDGETD_CONFIG`, then the XDG config directory.
enum ConfigPath {
    static func resolve(explicit: String?, environment: [String: String]) -> String {
        if let explicit { return explicit }
        if let path = environment["WIDGETD_CONFIG"], !path.isEmpty { return path }
        // The XDG spec says a relative $XDG_CONFIG_HOME is invalid and must be ignored.
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            return base + "/widgetd/widgets.yaml"
        }
        return (environment["HOME"] ?? "") + "/.config/widgetd/widgets.yaml"
    }

    /// The `check` command that reads `path`: bare when `check` would read that file anyway, else with `--config`
    /// (quoted for a shell when it needs it), so that advice to run it checks the file the advice is about.
    static func checkCommand(for path: String, environment: [String: String]) -> String {
        guard path != resolve(explicit: nil, environment: environment) else { return "widgetd check" }
        let plain = path.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "/._-+:@,".unicodeScalars.contains(scalar))
        }
        return "widgetd check --config " + (plain ? path : ShellQuoting.quoted(path))
    }
}
