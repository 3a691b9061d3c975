/// Where the session bus is, from the environment, as libdbus would find it, but never by autolaunching one: a daemon
/// that finds no bus must show so, not start `dbus-launch` (which needs an X display and leaves a bus behind).
enum SessionBusAddress {
    /// `DBUS_SESSION_BUS_ADDRESS` when set and not empty; else the systemd user bus `$XDG_RUNTIME_DIR/bus` when that
    /// socket exists; else nil.
    static func resolve(environment: (String) -> String?, socketExists: (String) -> Bool) -> String? {
        if let address = environment("DBUS_SESSION_BUS_ADDRESS"), !address.isEmpty { return address }
        if let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty, socketExists(runtime + "/bus") {
            return "unix:path=" + runtime + "/bus"
        }
        return nil
    }
}
