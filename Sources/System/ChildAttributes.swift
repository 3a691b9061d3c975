public import CLinux
import Glibc

/// What a child process of the daemon starts with, for `posix_spawn`: an empty signal mask and default
/// handlers for the signals the daemon blocks or handles (it blocks SIGHUP, SIGTERM, SIGINT and SIGCHLD
/// for its signalfd, and ignores SIGPIPE and SIGIO (`SpareFileCalls.ignoreLeaseBreaks`); a child must inherit none
/// of that), in a process group or session of its own.
public enum ChildAttributes {
    public enum Detachment {
        /// Its own process group, so a timeout can kill everything it started (`exec` commands).
        case processGroup
        /// Its own session, so it outlives the daemon and gets no terminal signals (click commands).
        case session
    }

    /// glibc's `POSIX_SPAWN_SETSID` (2.26+), which Swift does not import because it is behind _GNU_SOURCE.
    private static let setSessionFlag: Int32 = 0x80

    /// Calls `body` with initialised attributes, destroying them after.
    public static func with<T>(_ detachment: Detachment, _ body: (inout posix_spawnattr_t) throws -> T) rethrows -> T {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        // The widget signals and SIGHUP too: a `widgetd` that is not the daemon ignores them (`DaemonSignals`).
        for signal in [SIGHUP, SIGTERM, SIGINT, SIGCHLD, SIGPIPE, SIGXFSZ, SIGIO, SIGUSR1, SIGUSR2]
            + SignalFile.widgetSignals
        {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        switch detachment {
        case .processGroup:
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        case .session:
            flags |= setSessionFlag
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        return try body(&attributes)
    }

    /// Adds to `actions` the closing of every descriptor from 3 up in the child, after its dup2s: a child must not
    /// hold the daemon's lock, FIFO or pipes (a detached click command would keep the lock past the daemon's exit),
    /// nor whatever the daemon itself inherited.
    public static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        _ = widgetd_spawn_close_from(&actions, 3)
    }

    /// Starts `argv` (its program looked up on `PATH`, as `execvp` does) with `environment`, the standard
    /// descriptors that `actions` sets up and no other, detached as `detachment` says.
    /// - Returns: the child's pid, or the `errno` of the failed spawn.
    public static func spawn(
        _ argv: [String], environment: [String: String], actions: inout posix_spawn_file_actions_t,
        detachment: Detachment = .processGroup
    ) -> Result<pid_t, SpawnFailure> {
        closeInheritedDescriptors(&actions)
        var arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var environmentStrings: [UnsafeMutablePointer<CChar>?] =
            environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            environmentStrings.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = with(detachment) { attributes in
            posix_spawnp(&pid, argv[0], &actions, &attributes, &arguments, &environmentStrings)
        }
        return spawned == 0 ? .success(pid) : .failure(SpawnFailure(errno: spawned))
    }

    /// A spawn that failed, with `posix_spawnp`'s error number.
    public struct SpawnFailure: Error {
        public var errno: Int32
        public var reason: String { String(cString: strerror(errno)) }
    }
}
