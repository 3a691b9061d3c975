import FoundationEssentials
import Glibc
import Output
import System

/// Why the runtime directory or the control FIFO is not safe to use.
public enum ControlPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path is a symbolic link; it could point anywhere, including into another user's files.
    case symbolicLink(path: String)
    /// The path belongs to another user, who could read or forge our requests.
    case notOwned(path: String, owner: UInt32)
    /// The path grants group or other users access; `mode` is its permission bits.
    case unsafePermissions(path: String, mode: UInt32, expected: UInt32)
    /// Something other than a directory is where the runtime directory belongs.
    case notADirectory(path: String)
    /// Something other than a FIFO is where the control FIFO belongs.
    case notAFIFO(path: String)
    /// A system call failed.
    case system(SystemError)

    public var description: String {
        switch self {
        case .symbolicLink(let path):
            "\(path) is a symbolic link; refusing to follow it (remove it and try again)"
        case .notOwned(let path, let owner):
            "\(path) is owned by uid \(owner), not by you (uid \(getuid())); refusing to use it"
        case .unsafePermissions(let path, let mode, let expected):
            "\(path) has mode \(Self.octal(mode)); other users must have no access "
                + "(run: chmod \(Self.octal(expected)) \(path))"
        case .notADirectory(let path):
            "\(path) exists but is not a directory"
        case .notAFIFO(let path):
            "\(path) exists but is not a FIFO (remove it and try again)"
        case .system(let error):
            error.description
        }
    }

    private static func octal(_ mode: UInt32) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// Where the daemon and the CLI meet: the runtime directory, its control FIFO, lock and acknowledgements.
///
/// `$XDG_RUNTIME_DIR/widgetd` (`/tmp/widgetd-$UID` when that is unset), mode 0700. Anyone who can write
/// the FIFO can make the daemon run intents, so both the directory and the FIFO are checked with `lstat` to
/// be the user's own, not symbolic links and closed to group and others (DESIGN §4).
///
/// A directory or FIFO whose mode lets others in is refused, not repaired: we create both with no group or
/// other bits, so loosened bits mean someone else changed them, and while they were open another user could
/// have put things inside. Saying so, with the `chmod` that fixes it, is safer than quietly tightening a
/// directory that may already hold a planted FIFO (the same stance as tmux and OpenSSH).
public struct ControlPaths: Sendable, Equatable {
    /// The runtime directory.
    public var directory: String

    /// Uses `directory` as the runtime directory; tests pass a temporary one.
    public init(directory: String) {
        self.directory = directory
    }

    /// The runtime directory chosen by `environment`: `$XDG_RUNTIME_DIR/widgetd`, or `/tmp/widgetd-$UID`
    /// when `XDG_RUNTIME_DIR` is unset, empty or relative (which the XDG spec says to ignore).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            directory = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/widgetd"
        } else {
            directory = "/tmp/widgetd-\(getuid())"
        }
    }

    /// The control FIFO, `<dir>/control`.
    public var fifo: String { directory + "/control" }
    /// The single-instance lock, `<dir>/lock`.
    public var lock: String { directory + "/lock" }
    /// The socket a bar subscribes to its line on, and a reader follows records on, `<dir>/updates` (`UpdatesMessage`).
    public var updates: String { directory + "/updates" }
    /// Where acknowledgement files appear, `<dir>/acks`.
    public var acknowledgements: String { directory + "/acks" }

    /// The file that acknowledges `token`: `<dir>/acks/TOKEN`.
    public func acknowledgement(_ token: ControlCommand.AckToken) -> String {
        acknowledgements + "/" + token.rawValue
    }

    /// Acknowledges `token`: for the daemon, once the entries a request caused are written. A success is an empty
    /// file (`open(O_CREAT)`); a failure is a file holding why, written by rename so that the waiting CLI
    /// (`ControlClient.sendAndWait`, which removes it) never reads half of it.
    public func acknowledge(_ token: ControlCommand.AckToken, failure: String? = nil) throws(ControlPathError) {
        let path = acknowledgement(token)
        if let failure {
            do {
                try AtomicFile.write(Array((failure + "\n").utf8), to: path)
            } catch {
                throw .system(SystemError(call: "write", subject: path, errno: error.errno ?? EIO))
            }
            return
        }
        try withPathErrors { () throws(SystemError) in
            _ = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK)
        }
    }

    /// Creates the runtime and acknowledgement directories, mode 0700, where missing and checks both; for the daemon
    /// at start-up. The runtime directory's parent must exist. `acks/` is made and checked in the runtime directory's
    /// descriptor (`makeDirectory`), so a link swapped in for the runtime directory after its check is not followed.
    public func prepare() throws(ControlPathError) {
        try prepareDirectory()
        let runtime = try Self.openDirectory(directory, path: directory)
        _ = try Self.makeDirectory("acks", in: runtime.rawValue, path: acknowledgements)
    }

    /// Creates the runtime directory, mode 0700, where missing (`mkdir`) and checks it.
    public func prepareDirectory() throws(ControlPathError) {
        do {
            try systemCall("mkdir", directory) { mkdir(directory, 0o700) }
        } catch {
            guard error.errno == EEXIST else { throw .system(error) }  // there already: checked below
        }
        try Self.checkDirectory(directory)
    }

    /// Checks the runtime directory without creating anything; for the CLI, which should not create a
    /// directory for a daemon that is not there.
    public func check() throws(ControlPathError) {
        try Self.checkDirectory(directory)
    }

    /// Checks that `path` is a directory of ours, not a link, closed to others (`lstat`).
    public static func checkDirectory(_ path: String) throws(ControlPathError) {
        try checkDirectory(try statusNotALink(path), of: path)
    }

    /// The checks of `checkDirectory(_:)` on a status already taken (an open directory's `fstat`).
    static func checkDirectory(_ info: stat, of path: String) throws(ControlPathError) {
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: path) }
        try checkOwnership(info, of: path, expected: 0o700)
    }

    /// Checks that `path` is a FIFO of ours, not a link, closed to others (`lstat`).
    public static func checkFIFO(_ path: String) throws(ControlPathError) {
        try checkFIFO(try statusNotALink(path), of: path)
    }

    /// `path`'s own status (`lstat`), refused when it is a symbolic link.
    private static func statusNotALink(_ path: String) throws(ControlPathError) -> stat {
        let info = try linkStatus(path)
        guard info.st_mode & S_IFMT != S_IFLNK else { throw .symbolicLink(path: path) }
        return info
    }

    /// The checks of `checkFIFO(_:)` on a status already taken: after opening, on the descriptor's own
    /// `fstat`, so a FIFO swapped between the `lstat` and the `open` is still caught.
    static func checkFIFO(_ info: stat, of path: String) throws(ControlPathError) {
        guard info.st_mode & S_IFMT == S_IFIFO else { throw .notAFIFO(path: path) }
        try checkOwnership(info, of: path, expected: 0o600)
    }

    private static func checkOwnership(_ info: stat, of path: String, expected: UInt32) throws(ControlPathError) {
        guard info.st_uid == getuid() else { throw .notOwned(path: path, owner: info.st_uid) }
        let permissions = info.st_mode & 0o7777
        guard permissions & 0o077 == 0 else {
            throw .unsafePermissions(path: path, mode: permissions, expected: expected)
        }
    }

    /// `lstat(path)`; the error names the call and the path.
    static func linkStatus(_ path: String) throws(ControlPathError) -> stat {
        var info = stat()
        try withPathErrors { () throws(SystemError) in try systemCall("lstat", path) { lstat(path, &info) } }
        return info
    }
}

/// Runs `body`, reporting a failed system call as a `ControlPathError`.
@discardableResult
func withPathErrors<Result>(_ body: () throws(SystemError) -> Result) throws(ControlPathError) -> Result {
    do {
        return try body()
    } catch {
        throw .system(error)
    }
}
