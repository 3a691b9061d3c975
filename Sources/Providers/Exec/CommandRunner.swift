import Basics
import CLinux
import FoundationEssentials
import Glibc
import Synchronization
import System

/// What one run of a command gave.
struct CommandResult: Sendable {
    var output: [UInt8]
    /// True when the output went past the cap and the rest was thrown away.
    var truncated: Bool
    var exitStatus: Int32
    /// The first lines of standard error, for the failure message.
    var errorOutput: String
}

extension CommandRunner {
    /// A run past its time. i3blocks never kills a block, so a script moved from it may need more than the default:
    /// the message names the setting.
    static func timedOut(after timeout: TimeInterval) -> CommandError {
        CommandError(
            description: "timed out after \(format(timeout)); its processes were killed (the widget's timeout: sets "
                + "the limit, up to 5 min)")
    }
}

/// Why a command gave no result.
struct CommandError: Error, CustomStringConvertible {
    var description: String
}

/// The process groups of the commands running now, so a daemon that stops can end them rather than leave them
/// running without a reader.
public enum RunningCommands {
    private static let groups = Mutex<Set<pid_t>>([])

    static func started(_ pid: pid_t) {
        groups.withLock { _ = $0.insert(pid) }
    }

    static func ended(_ pid: pid_t) {
        groups.withLock { _ = $0.remove(pid) }
    }

    /// The commands running now, whose threads wait for them (`ProcessHygiene` leaves them to those threads).
    static var pids: Set<pid_t> {
        groups.withLock { $0 }
    }

    /// Sends SIGTERM to every running command's process group, as i3blocks does to its blocks when it exits.
    public static func terminateAll() {
        for group in groups.withLock({ $0 }) { kill(-group, SIGTERM) }
    }
}

/// Runs a command as the exec kind needs: argv without a shell, in its own process group so a timeout
/// kills everything it started, with an empty signal mask (the daemon blocks several), a cap on what it
/// may print, and a hard deadline.
enum CommandRunner {
    /// Bytes of standard output kept; the rest is read and dropped so the command is not blocked.
    static let outputCap = 64 * 1024
    static let errorCap = 4 * 1024
    /// The pause between reads once a cap is passed: at most 200 reads a second, each up to a pipe's 64 KiB.
    static let throttledReadSpacing: TimeInterval = 0.005

    /// Runs `argv` to its end or its timeout. With an `owner` (the widget's name) its descendants are traced
    /// (`ProcessHygiene`): when the timeout kills the command, the processes it moved out of its group go too.
    ///
    /// The run ends when the command exits, as i3blocks' does: what it printed by then is its output. A program it
    /// started in the background and that kept its standard output (a click's `pavucontrol &`) holds the pipe open
    /// for as long as it runs; it is not waited for, and not killed. The exit is seen on a pidfd (Linux 5.3); a kernel
    /// without one waits for the output's end instead.
    static func run(
        _ argv: [String], environment: [String: String], timeout: TimeInterval, owner: String? = nil
    ) throws -> CommandResult {
        guard let program = argv.first, !program.isEmpty else { throw CommandError(description: "empty command") }
        // Tagged by run, so a timeout ends what this run started, not what an earlier click left running.
        let run = ProcessHygiene.nextRun()
        let environment = owner.map { ProcessHygiene.tagged(environment, owner: $0, run: run) } ?? environment
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        let pid = try SpawnGuard.withLock { () throws -> pid_t in
            let pid = try spawn(program, argv, environment: environment, outPipe: &outPipe, errPipe: &errPipe)
            RunningCommands.started(pid)
            return pid
        }
        defer {
            RunningCommands.ended(pid)
            close(outPipe[0])
            close(errPipe[0])
        }

        let deadline = Date().addingTimeInterval(timeout)
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var truncated = false
        var open: Set<Int32> = [outPipe[0], errPipe[0]]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let exitFile = widgetd_pidfd_open(pid)
        defer { if exitFile >= 0 { close(exitFile) } }
        var status: Int32 = 0
        var exited = false
        func take(_ count: Int, from descriptor: Int32) {
            if descriptor == outPipe[0] {
                let room = outputCap - output.count
                if count > room { truncated = true }
                output.append(contentsOf: buffer[0..<min(count, max(room, 0))])
            } else if errors.count < errorCap {
                errors.append(contentsOf: buffer[0..<min(count, errorCap - errors.count)])
            }
        }
        // Once a cap is reached, what comes after is only thrown away: reads are then `throttledReadSpacing` apart, so
        // a command printing flat out until its timeout (`yes`, a byte at a time) waits on its pipe in between, and
        // each read takes what a pause let in (up to the pipe's 64 KiB), as a big output drains at full speed.
        var throttled = false
        var nextRead = Date.distantPast
        while !open.isEmpty || (exitFile >= 0 && !exited) {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                // The whole group: a shell script's children go too.
                kill(-pid, SIGKILL)
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
                owner.map { ProcessHygiene.endEscaped(owner: $0, run: run) }
                throw Self.timedOut(after: timeout)
            }
            var wait = min(remaining, 60)
            var descriptors: [pollfd] = []
            if throttled, nextRead.timeIntervalSinceNow > 0 {
                wait = min(wait, max(nextRead.timeIntervalSinceNow, 0.001))
            } else {
                descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            }
            if exitFile >= 0, !exited { descriptors.append(pollfd(fd: exitFile, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32((wait * 1000).rounded(.up)))
            if ready < 0 && errno != EINTR { break }
            for descriptor in descriptors where descriptor.revents != 0 {
                if descriptor.fd == exitFile {
                    // Readable once it has exited; -1 only if someone else reaped it (its status is then unknown).
                    guard retryingInterrupted({ waitpid(pid, &status, WNOHANG) }) != 0 else { continue }
                    exited = true
                    // What it printed before it exited is in the pipes: read it without waiting, then stop reading
                    // what a background child that kept the pipes may print.
                    for remaining in open {
                        _ = fcntl(remaining, F_SETFL, fcntl(remaining, F_GETFL) | O_NONBLOCK)
                        // A pipe holds 64 KiB: a few reads empty it, unless a child left behind keeps printing.
                        for _ in 0..<PersistentProcess.readsAfterExit {
                            let count = retryingInterrupted { read(remaining, &buffer, buffer.count) }
                            if count <= 0 { break }
                            take(count, from: remaining)
                        }
                    }
                    open.removeAll()
                    break
                }
                let count = retryingInterrupted { read(descriptor.fd, &buffer, buffer.count) }
                if count <= 0 {
                    if count < 0 && errno == EAGAIN { continue }
                    open.remove(descriptor.fd)
                    continue
                }
                take(count, from: descriptor.fd)
                if truncated || errors.count >= errorCap {
                    throttled = true
                    nextRead = Date().addingTimeInterval(Self.throttledReadSpacing)
                }
            }
        }
        // Without a pidfd: its output is closed, but it may linger (a script that backgrounds a child with its own
        // stdout): wait for the exit only until the deadline, with a short nap between checks, as there is no other
        // descriptor to poll for one child's exit without SIGCHLD, which the daemon owns.
        while !exited {
            let reaped = retryingInterrupted { waitpid(pid, &status, WNOHANG) }
            if reaped == pid || reaped < 0 { break }
            if deadline.timeIntervalSinceNow <= 0 {
                kill(-pid, SIGKILL)
                retryingInterrupted { waitpid(pid, &status, 0) }
                owner.map { ProcessHygiene.endEscaped(owner: $0, run: run) }
                throw Self.timedOut(after: timeout)
            }
            usleep(2_000)
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import (they are macros).
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return CommandResult(
            output: output, truncated: truncated, exitStatus: exitStatus,
            errorOutput: String(decoding: errors, as: UTF8.self))
    }

    /// Makes the pipes and starts the command on them; the caller reads the read ends and closes them.
    private static func spawn(
        _ program: String, _ argv: [String], environment: [String: String], outPipe: inout [Int32],
        errPipe: inout [Int32]
    ) throws -> pid_t {
        guard makePipe(&outPipe) else { throw CommandError(description: "pipe: \(errnoText())") }
        guard makePipe(&errPipe) else {
            close(outPipe[0])
            close(outPipe[1])
            throw CommandError(description: "pipe: \(errnoText())")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        let spawned = ChildAttributes.spawn(argv, environment: environment, actions: &actions)
        close(outPipe[1])
        close(errPipe[1])
        switch spawned {
        case .success(let pid):
            return pid
        case .failure(let failure):
            close(outPipe[0])
            close(errPipe[0])
            throw CommandError(description: "cannot run \(program): \(failure.reason)")
        }
    }

    /// A pipe whose ends close on exec, so only the child's dup2'd copies reach it (`pipe2` needs
    /// _GNU_SOURCE, which Swift's Glibc import does not define). Called under `SpawnGuard`.
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }

    static func format(_ seconds: TimeInterval) -> String {
        seconds < 1
            ? "\(Int((seconds * 1000).rounded())) ms"
            : seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
