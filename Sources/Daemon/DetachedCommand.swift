import FoundationEssentials
import Glibc
import System

/// Starts a click's command (`on_click: {right: [xdg-open, …]}`) without waiting for it: the seed's "tap
/// outside the button opens the app".
///
/// `posix_spawnp` with its own session (so it outlives the daemon and gets no terminal signals), an empty
/// signal mask (the daemon blocks SIGHUP, SIGTERM, SIGINT and SIGCHLD; a child must not inherit that), and
/// /dev/null for its standard streams, in the daemon's environment (the one it was started with, which a daemon sharing
/// its process with others does not read from the process). The daemon reaps it when SIGCHLD arrives, never blocking
/// on it (`ClickCommands`).
enum DetachedCommand {
    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    static func spawn(_ argv: [String], environment: [String: String]) throws -> pid_t {
        guard let program = argv.first, !program.isEmpty else { throw SpawnError(description: "empty command") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in Int32(0)...2 {
            posix_spawn_file_actions_addopen(
                &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let spawned = SpawnGuard.withLock {
            ChildAttributes.spawn(
                argv, environment: environment, actions: &actions, detachment: .session)
        }
        switch spawned {
        case .success(let pid): return pid
        case .failure(let failure): throw SpawnError(description: "cannot start \(program): \(failure.reason)")
        }
    }
}
