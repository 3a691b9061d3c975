import Glibc

/// What a symbolic link names, one level deep.
public enum SymbolicLink {
    /// The path `path` links to, a relative target read from the link's directory; nil when `path` is no link.
    ///
    /// One level, not the end of a chain (`realpath`): a dotfile manager's link (GNU stow's into a repository) names
    /// the file that is edited, while the end of a longer chain can be an immutable store (home-manager's
    /// `/nix/store/…`), whose directory changes all the time for other reasons and whose files never do.
    public static func target(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if target.hasPrefix("/") { return target }
        let directory = Path.directory(of: path)
        return Path.appending(target, to: directory.isEmpty ? "." : directory)
    }
}
