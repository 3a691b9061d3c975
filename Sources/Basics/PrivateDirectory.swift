import Glibc

/// `mkdir -p` with mode 0700 for every directory it makes, parents included.
///
/// FoundationEssentials' `createDirectory(withIntermediateDirectories:attributes:)` makes each directory with mode
/// 0777 minus the umask and only then `chmod`s it: when a `widgetd show --follow` that a bar started beside the daemon
/// makes `$XDG_RUNTIME_DIR/widgetd` on its way to `…/widgetd/out`, a daemon looking in between would see 0755 and
/// refuse to start. `mkdir(path, 0700)` leaves no such moment. Existing directories are left as they are: whoever
/// owns them checks them.
public enum PrivateDirectory {
    /// The `errno` of the `mkdir` that failed, and the path it failed on.
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let errno: Int32
        public var description: String { "cannot make \(path): \(String(cString: strerror(errno)))" }
    }

    public static func make(_ path: String) throws(Failure) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += component
            let result = retryingInterrupted { mkdir(prefix, 0o700) }
            if result != 0 && errno != EEXIST { throw Failure(path: prefix, errno: errno) }
            prefix += "/"
        }
    }
}
