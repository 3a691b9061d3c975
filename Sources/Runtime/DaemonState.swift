import Basics
import Control
import FoundationEssentials
import Glibc
import Output
import System

/// What the running daemon tells the CLI about itself: `<runtime dir>/daemon.json`.
///
/// The CLI cannot work out the daemon's outputs from a config path alone: it may be given another `--config`, or
/// `settings.output_dir` may have been edited since the daemon started (settings take effect at restart). So the
/// daemon writes where it is, and `show`, `list`, `click`, `reload`, `status`, `doctor` and the store's commands read
/// it. Written
/// atomically at start-up (after the lock is taken) and after each config reload; removed at a clean stop only when
/// it still names this process, so a daemon that took over never loses its file.
public struct DaemonState: Codable, Sendable, Equatable {
    public var pid: Int32
    /// The config the daemon runs, absolute.
    public var config: String
    /// Where it writes the bar files and records.
    public var output: String
    /// ISO 8601, with offset.
    public var startedAt: String
    /// Errors in the config file the last time the daemon read it; when non-zero it runs an older config.
    public var configErrors: Int
    /// The store its widgets read (`settings.store` when it started), for the CLI's edits (`StoreLocation`); nil in
    /// the file of a daemon from before it was written.
    public var store: String?

    public init(pid: Int32, config: String, output: String, startedAt: String, configErrors: Int, store: String? = nil)
    {
        self.pid = pid
        self.config = config
        self.output = output
        self.startedAt = startedAt
        self.configErrors = configErrors
        self.store = store
    }

    public static let fileName = "daemon.json"

    public static func path(in control: ControlPaths) -> String { control.directory + "/" + fileName }

    public func write(to control: ControlPaths) throws {
        try AtomicFile.write(encoded(), to: Self.path(in: control), permissions: 0o600)
    }

    /// Removes the file if it still names this process.
    public static func remove(from control: ControlPaths) {
        guard let state = read(from: control), state.pid == getpid() else { return }
        unlink(path(in: control))
    }

    public static func read(from control: ControlPaths) -> DaemonState? {
        read(from: path(in: control))
    }

    /// The state of the daemon that runs now, or nil: the file names a live process that is a widgetd and holds
    /// the lock. A file left by a daemon that was killed with SIGKILL is
    /// not believed.
    public static func running(in control: ControlPaths) -> DaemonState? {
        guard let state = read(from: control), isWidgetd(state.pid) || isTheTestsDaemon(state.pid) else { return nil }
        // The `flock`'s holder, from /proc/locks: the lock file's text is anyone's to change (`echo 1 > lock` made a
        // running daemon "not running").
        guard LockFile.holder(of: control.lock) == state.pid else { return nil }
        return state
    }

    /// Set only by tests that run the daemon and the CLI's commands in their own process, whose command name is the
    /// test runner's: there the daemon this process runs is believed too. Task-local, so the real binary, which never
    /// sets it, and tests that run beside those keep the real check.
    @TaskLocal public static var daemonInThisProcessIsWidgetd = false

    private static func isTheTestsDaemon(_ pid: Int32) -> Bool {
        daemonInThisProcessIsWidgetd && pid == getpid()
    }

    /// Whether `pid` is a live process whose command name is exactly widgetd's (a pid reused by another program, even
    /// one whose name starts the same, is not).
    public static func isWidgetd(_ pid: Int32) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else { return false }
        return comm.trimmingNewlines() == "widgetd"
    }
}
