import Glibc

/// Path text as `NSString`'s path methods read and write it, without Foundation (which would bring ICU into the
/// daemon).
///
/// Only the text is looked at, never the file system. Like NSString, `directory(of:)` and `lastComponent(of:)` first
/// fold runs of `/` into one and drop a trailing `/` (the root `/` stays), so `"a//b/"` is read as `"a/b"`;
/// `appending` joins the text as it is. `PathTests` holds each against NSString.
public enum Path {
    /// The path without its last component: `/a/b` → `/a`, `/a` → `/`, `a` → `""` (`deletingLastPathComponent`).
    public static func directory(of path: String) -> String {
        if isOnlySlashes(path) { return "" }
        let fixed = normalized(path)
        if fixed == "/" || fixed.isEmpty { return fixed }
        guard let slash = fixed.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        if slash == fixed.startIndex { return "/" }
        return String(fixed[..<slash])
    }

    /// The last component: `/a/b.txt` → `b.txt`, `/` → `/`, `""` → `""` (`lastPathComponent`).
    public static func lastComponent(of path: String) -> String {
        if isOnlySlashes(path) { return "" }
        let fixed = normalized(path)
        if fixed.utf8.count <= 1 { return fixed }
        guard let slash = fixed.utf8.lastIndex(of: UInt8(ascii: "/")) else { return fixed }
        return String(fixed[fixed.utf8.index(after: slash)...])
    }

    /// `component` after a `/` unless `path` ends in one: `/a` + `b` → `/a/b`, `/a/` + `b` → `/a/b`, `""` + `b` → `b`
    /// (`appendingPathComponent`, which folds no slashes either).
    public static func appending(_ component: String, to path: String) -> String {
        if path.isEmpty { return component }
        if component.isEmpty { return path }
        return path.utf8.last == UInt8(ascii: "/") ? path + component : path + "/" + component
    }

    /// The user's home directory as `NSHomeDirectory()` finds it: `$HOME` when set and not empty, else the password
    /// database's entry (`getpwuid`), else `/`.
    public static func homeDirectory() -> String {
        if let home = getenv("HOME"), home.pointee != 0 { return String(cString: home) }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir { return String(cString: directory) }
        return "/"
    }

    /// NSString reads `//`, `///` … as empty, though a single `/` is the root.
    private static func isOnlySlashes(_ path: String) -> Bool {
        path.utf8.count > 1 && path.utf8.allSatisfy { $0 == UInt8(ascii: "/") }
    }

    /// Runs of `/` folded into one, and a trailing `/` dropped unless the path is only `/`.
    static func normalized(_ path: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for byte in path.utf8 where !(byte == UInt8(ascii: "/") && bytes.last == UInt8(ascii: "/")) {
            bytes.append(byte)
        }
        if bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
