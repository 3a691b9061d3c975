import Basics
import CLinux
import FoundationEssentials
import Glibc
import System

/// A persistent command's process: in a process group of its own (so stopping it ends everything it started), its
/// standard input a pipe the daemon writes clicks to, its standard output a pipe the session reads, and its standard
/// error /dev/null, or a pipe for a plugin, whose last lines say why it failed.
///
/// It is watched by its process, not by its pipe: a child it started in the background keeps the pipe open after it
/// exits (`sleep 1000 &` in a script), so the output's end does not say it exited; `exitFile` does.
struct PersistentProcess {
    let pid: pid_t
    /// The write end of the command's standard input; non-blocking.
    private(set) var input: Int32
    /// The read end of its standard output.
    private(set) var output: Int32
    /// A pidfd (Linux 5.3), readable once the process has exited; -1 on a kernel without, where only the output's end
    /// tells.
    private(set) var exitFile: Int32
    /// The read end of its standard error (non-blocking) when spawned `keepingErrors`; -1 otherwise.
    private(set) var errors: Int32 = -1

    /// Reads of 64 KiB, at most, of what a command printed before it exited: 1 MiB, the most an unprivileged process
    /// may make its pipe hold. A child it left holding the pipe may print on; that is not waited for.
    static let readsAfterExit = 16

    static func spawn(_ argv: [String], environment: [String: String], keepingErrors: Bool = false) throws
        -> PersistentProcess
    {
        guard let program = argv.first, !program.isEmpty else { throw CommandError(description: "empty command") }
        return try SpawnGuard.withLock { () throws -> PersistentProcess in
            var inPipe: [Int32] = [-1, -1]
            var outPipe: [Int32] = [-1, -1]
            var errorPipe: [Int32] = [-1, -1]
            func closePipes() {
                for end in inPipe + outPipe + errorPipe where end >= 0 { close(end) }
            }
            guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, !keepingErrors || pipe(&errorPipe) == 0 else {
                let error = errno
                closePipes()
                throw CommandError(description: "pipe: \(String(cString: strerror(error)))")
            }
            for end in inPipe + outPipe + errorPipe where end >= 0 { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(inPipe[1], F_SETFL, fcntl(inPipe[1], F_GETFL) | O_NONBLOCK)
            if keepingErrors { _ = fcntl(errorPipe[0], F_SETFL, fcntl(errorPipe[0], F_GETFL) | O_NONBLOCK) }

            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            if keepingErrors {
                posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
            } else {
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            }
            let spawned = ChildAttributes.spawn(argv, environment: environment, actions: &actions)
            close(inPipe[0])
            close(outPipe[1])
            if keepingErrors { close(errorPipe[1]) }
            switch spawned {
            case .success(let pid):
                // Under the spawn lock, so that `ProcessHygiene.reapOrphans` never takes its exit from the thread
                // that waits for it (the caller calls `RunningCommands.ended` once it has reaped it).
                RunningCommands.started(pid)
                return PersistentProcess(
                    pid: pid, input: inPipe[1], output: outPipe[0], exitFile: widgetd_pidfd_open(pid),
                    errors: errorPipe[0])
            case .failure(let failure):
                close(inPipe[1])
                close(outPipe[0])
                if keepingErrors { close(errorPipe[0]) }
                throw CommandError(description: "cannot run \(program): \(failure.reason)")
            }
        }
    }

    /// Waits for the command to exit, ends what it left running in its process group, reaps it and the members of
    /// the group that were orphaned to the daemon, and returns its status as a shell shows it. With `killingAfter`,
    /// the group is sent SIGKILL when the command has not exited by then (a script that ignores SIGTERM).
    ///
    /// The group is ended before the command is reaped: until then its pid, which is the group's id, cannot be given
    /// to another process, so the signal reaches no stranger.
    func waitForExit(killingAfter grace: TimeInterval?) -> Int32 {
        if let grace, !hasExited(within: grace) { kill(-pid, SIGKILL) }
        var info = siginfo_t()
        retryingInterrupted { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        retryingInterrupted { waitpid(pid, &status, 0) }
        // The group's members that are the daemon's children now (it is their subreaper): a SIGCHLD for them may come
        // while this command is still registered as running, and `reapOrphans` then leaves them.
        var ignored: Int32 = 0
        while retryingInterrupted({ waitpid(-pid, &ignored, 0) }) > 0 {}
        return Self.exitStatus(status)
    }

    /// Whether the command exits within `seconds`; it is not reaped.
    private func hasExited(within seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            var info = siginfo_t()
            let waited = retryingInterrupted { waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) }
            if waited < 0 || info._sifields._sigchld.si_pid == pid { return true }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return false }
            if exitFile >= 0 {
                var descriptor = pollfd(fd: exitFile, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, Int32((remaining * 1000).rounded(.up)))
            } else {
                // No descriptor reports one child's exit without a pidfd or SIGCHLD, which the daemon owns; this runs
                // only while stopping, for at most the grace period.
                usleep(10_000)
            }
        }
    }

    mutating func closeAll() {
        if input >= 0 { close(input) }
        if output >= 0 { close(output) }
        if exitFile >= 0 { close(exitFile) }
        if errors >= 0 { close(errors) }
        input = -1
        output = -1
        exitFile = -1
        errors = -1
    }

    /// WIFEXITED / WEXITSTATUS, which Swift does not import (they are macros).
    private static func exitStatus(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
