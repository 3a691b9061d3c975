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

    /// Where the bus will be once there is one: `DBUS_SESSION_BUS_ADDRESS` when set and not empty, else
    /// `$XDG_RUNTIME_DIR/bus` whether or not that socket exists yet; nil when the environment names neither, and then
    /// no bus can ever be found (a process's environment does not change).
    static func expected(environment: (String) -> String?) -> String? {
        if let address = environment("DBUS_SESSION_BUS_ADDRESS"), !address.isEmpty { return address }
        guard let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty else { return nil }
        return "unix:path=" + runtime + "/bus"
    }

    /// The socket paths of `address` when every one of its entries (`;`-separated) is a `unix:path=` with an absolute
    /// path and nothing else: a bus that is not there can then be waited for by inotify on their directories. Nil for
    /// anything a file's appearance does not announce (`unix:abstract=`, `unix:dir=`, `unix:tmpdir=`,
    /// `unix:runtime=`, `tcp:`, `launchd:`, …) or cannot be read; the listener then tries again on a timer.
    static func socketPaths(of address: String) -> [String]? {
        var paths: [String] = []
        for entry in address.split(separator: ";") {
            guard let colon = entry.firstIndex(of: ":"), entry[..<colon] == "unix" else { return nil }
            let pairs = entry[entry.index(after: colon)...].split(separator: ",")
            guard pairs.count == 1, pairs[0].hasPrefix("path="),
                let path = unescape(pairs[0].dropFirst("path=".count)).flatMap(SocketPathWatch.normalized)
            else { return nil }
            paths.append(path)
        }
        return paths.isEmpty ? nil : paths
    }

    /// A D-Bus address value with its `%XX` escapes undone; nil for a bad escape, a NUL, or bytes that are not UTF-8.
    static func unescape(_ value: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = value.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexDigit), let low = utf8.next().flatMap(hexDigit) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes.contains(0) ? nil : String(validating: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
