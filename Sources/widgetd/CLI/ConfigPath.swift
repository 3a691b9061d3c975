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
}
