import Glibc
import Synchronization

extension Zone {
    private static let cachedCurrent = Mutex<Zone?>(nil)

    /// The process's zone, `local()`, read once and kept until `resetCurrent()`, as the C library's `tzset` keeps
    /// it; UTC when `local()` fails (a `TZ` that names nothing, an unreadable `/etc/localtime`), as glibc falls
    /// back. The daemon calls `resetCurrent()` when `/etc/localtime` changes.
    public static var current: Zone {
        if let zone = cachedCurrent.withLock({ $0 }) { return zone }
        let zone = (try? local()) ?? utc
        cachedCurrent.withLock { $0 = zone }
        return zone
    }

    /// Why `local()` fails, and so `current` is UTC: a `TZ` that names no zone, an unreadable `/etc/localtime`; nil
    /// when it works. Read afresh, for `doctor` and the daemon's start to say so.
    public static var localProblem: String? {
        do {
            _ = try local()
            return nil
        } catch {
            let tz = getenv("TZ").map { String(cString: $0) }
            return tz.map { "TZ=\($0): \(error)" } ?? "/etc/localtime: \(error)"
        }
    }

    /// Forgets the zone `current` read, so that the next use reads `TZ` and `/etc/localtime` again.
    public static func resetCurrent() {
        cachedCurrent.withLock { $0 = nil }
    }

    /// The name of the zone `/etc/localtime` links to (`/usr/share/zoneinfo/Europe/Berlin` gives `Europe/Berlin`),
    /// as Foundation and `timedatectl` name the system's zone; `localtime` when it is a plain file or a link
    /// outside a zoneinfo directory.
    static func linkedIdentifier(of path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return "localtime" }
        let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var parts = target.split(separator: "/").map(String.init)
        guard let marker = parts.lastIndex(of: "zoneinfo") else { return "localtime" }
        parts.removeSubrange(...marker)
        // Debian's `posix/` tree holds the same files under the same names.
        if parts.first == "posix" { parts.removeFirst() }
        let name = parts.joined(separator: "/")
        return name.isEmpty ? "localtime" : String(name)
    }
}
