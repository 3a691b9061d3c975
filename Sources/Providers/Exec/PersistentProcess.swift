import Basics
import CLinux
import FoundationEssentials
import Glibc
import System

/// A persistent command's process: in a process group of its own (so stopping it ends everything it started), its
/// standard input a pipe the daemon writes clicks to, its standard output a pipe the session reads.
struct PersistentProcess {
    let pid: pid_t
    /// The write end of the command's standard input; non-blocking.
    private(set) var input: Int32
    /// The read end of its standard output.
    private(set) var output: Int32

    static func spawn(_ argv: [String], environment: [String: String]) throws -> PersistentProcess {
        guard let program = argv.first, !program.isEmpty else { throw CommandError(description: "empty command") }
        return try SpawnGuard.withLock { () throws -> PersistentProcess in
            var inPipe: [Int32] = [-1, -1]
            var outPipe: [Int32] = [-1, -1]
            guard pipe(&inPipe) == 0 else {
                throw CommandError(description: "pipe: \(String(cString: strerror(errno)))")
            }
            guard pipe(&outPipe) == 0 else {
                close(inPipe[0])
                close(inPipe[1])
                throw CommandError(description: "pipe: \(String(cString: strerror(errno)))")
            }
            for end in inPipe + outPipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(inPipe[1], F_SETFL, fcntl(inPipe[1], F_GETFL) | O_NONBLOCK)

            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let spawned = ChildAttributes.spawn(argv, environment: environment, actions: &actions)
            close(inPipe[0])
            close(outPipe[1])
            switch spawned {
            case .success(let pid):
                return PersistentProcess(pid: pid, input: inPipe[1], output: outPipe[0])
            case .failure(let failure):
                close(inPipe[1])
                close(outPipe[0])
                throw CommandError(description: "cannot run \(program): \(failure.reason)")
            }
        }
    }

    /// Waits for the command to exit and returns its status as a shell shows it. With `killingAfter`, its group is
    /// sent SIGKILL when it has not exited by then (a script that ignores SIGTERM).
    func waitForExit(killingAfter grace: TimeInterval?) -> Int32 {
        var status: Int32 = 0
        if let grace {
            let deadline = Date().addingTimeInterval(grace)
            while true {
                let reaped = retryingInterrupted { waitpid(pid, &status, WNOHANG) }
                if reaped == pid || reaped < 0 { return Self.exitStatus(status) }
                if Date() >= deadline { break }
                // No descriptor reports one child's exit without SIGCHLD, which the daemon owns; this runs only while
                // stopping, for at most the grace period.
                usleep(10_000)
            }
            kill(-pid, SIGKILL)
        }
        retryingInterrupted { waitpid(pid, &status, 0) }
        return Self.exitStatus(status)
    }

    mutating func closeAll() {
        if input >= 0 { close(input) }
        if output >= 0 { close(output) }
        input = -1
        output = -1
    }

    /// WIFEXITED / WEXITSTATUS, which Swift does not import (they are macros).
    private static func exitStatus(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
