import FoundationEssentials
import Glibc

/// Why an output file or directory could not be written, naming the call, the path and the system's reason.
public struct OutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system call that failed (`open`, `write`, `rename`, …), or `check` when widgetd refused the path itself.
    public var call: String
    public var path: String
    /// `errno` as the call left it; nil for a refusal.
    public var errno: Int32?
    /// `strerror`'s text for `errno`, or the refusal's reason.
    public var reason: String

    public init(call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
        self.reason = String(cString: strerror(errno))
    }

    /// A path widgetd will not use, such as an output directory that is a symbolic link.
    public init(refusing path: String, because reason: String) {
        self.call = "check"
        self.path = path
        self.errno = nil
        self.reason = reason
    }

    /// `rename(/run/user/1000/widgetd/.clock.plain.1234.1, /run/user/1000/widgetd/clock.plain): No such file or
    /// directory` for a failed call, `/tmp/out: is a symbolic link; …` for a refusal.
    public var description: String {
        errno == nil ? "\(path): \(reason)" : "\(call)(\(path)): \(reason)"
    }
}
