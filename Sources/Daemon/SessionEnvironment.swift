/// Gives a click's command the graphical session's `DISPLAY`, `WAYLAND_DISPLAY` and `XAUTHORITY` when the daemon
/// started without them.
///
/// A service started at login (`WantedBy=default.target`) usually starts before the X or Wayland session, so its
/// environment lacks the display, and an `on_click: [xdg-open, …]` would fail. The session hands its display to
/// the user manager (`systemctl --user import-environment DISPLAY WAYLAND_DISPLAY`, or
/// `dbus-update-activation-environment --systemd`), but a running process never sees that. So, under systemd and
/// without a display of its own, the daemon starts each click command through a small `sh` that first takes those
/// variables from `systemctl --user show-environment`: asked at click time, in the child, so the loop never waits
/// for systemctl and a session started after the daemon still counts.
enum SessionEnvironment {
    static let variables = ["DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY"]

    /// Whether `environment` names an X or Wayland display.
    static func hasDisplay(_ environment: [String: String]) -> Bool {
        ["DISPLAY", "WAYLAND_DISPLAY"].contains { environment[$0]?.isEmpty == false }
    }

    /// `argv` as given, or wrapped so it runs with the user manager's display variables.
    static func clickCommand(_ argv: [String], environment: [String: String]) -> [String] {
        let underSystemd = environment["INVOCATION_ID"] != nil || environment["NOTIFY_SOCKET"] != nil
        guard underSystemd, !hasDisplay(environment) else { return argv }
        let patterns = variables.map { "\($0)=*" }.joined(separator: "|")
        // `show-environment` prints one NAME=VALUE per line; values with odd characters come $'…'-quoted, which a
        // display name never needs, so such lines are left out rather than unquoted here.
        let script = """
            while IFS= read -r assignment; do
              case $assignment in \(patterns)) case $assignment in *\\$\\'*) ;; *) export "$assignment" ;; esac ;; esac
            done <<EOF
            $(systemctl --user show-environment 2>/dev/null)
            EOF
            exec "$@"
            """
        return ["/bin/sh", "-c", script, "widgetd-click"] + argv
    }
}
