import Foundation
import Glibc
import Runtime
import Synchronization
import System
import Testing

@testable import CLI
@testable import Daemon

/// What a command printed and its exit status, as a shell would see them.
struct CommandOutcome: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The CLI's commands run in the test's process against a `DrivenDaemon`: the same entry point as the binary's
/// (`WidgetdMain.run`), with its environment, a console that keeps what they print, and the daemon this process runs
/// believed to be widgetd (`DaemonState.daemonInThisProcessIsWidgetd`).
extension DrivenDaemon {
    /// Runs a command that only reads the daemon's files (`list`, `status`, `show`, an app's edit), on a thread of its
    /// own: the daemon takes a turn only for what the command says on the updates socket (`show` and `list` follow
    /// the records they read), as a running daemon answers at once. `config`: the `--config` it is given, the
    /// daemon's own unless said; `extra`: variables added to its environment (what a bar sets for a click).
    func command(_ arguments: [String], config: String? = nil, adding extra: [String: String] = [:]) -> CommandOutcome {
        answeringUpdates(
            arguments + ["--config", config ?? configPath], environment: environment.merging(extra) { $1 })
    }

    /// Runs a command as it is written, with no `--config` added: it finds its config as a user's command does.
    func commandAsGiven(_ arguments: [String]) -> CommandOutcome {
        answeringUpdates(arguments, environment: environment)
    }

    /// Runs the command on a thread of its own, taking a turn whenever it says something on the updates socket.
    private func answeringUpdates(_ arguments: [String], environment: [String: String]) -> CommandOutcome {
        let running = RunningCommand(arguments, environment: environment)
        while !running.ended(within: .milliseconds(2)) {
            let socket = daemon.updateSubscribers.descriptors
            if let ready = try? Poller.readable(socket, timeout: .zero), !ready.isEmpty { turn(timeout: .zero) }
        }
        return running.outcome!
    }

    /// A command run on a thread of its own.
    private final class RunningCommand: Sendable {
        private let result = Mutex<CommandOutcome?>(nil)
        private let end = DispatchSemaphore(value: 0)

        init(_ arguments: [String], environment: [String: String]) {
            Thread.detachNewThread { [self] in
                let outcome = DrivenDaemon.run(arguments, environment: environment)
                result.withLock { $0 = outcome }
                end.signal()
            }
        }

        /// Whether it ended, waiting up to `timeout` for it.
        func ended(within timeout: DispatchTimeInterval) -> Bool { end.wait(timeout: .now() + timeout) == .success }

        /// What it printed and its status, once it ended.
        var outcome: CommandOutcome? { result.withLock { $0 } }
    }

    /// Runs a command that waits for the daemon's answer (`reload --wait`, `click --wait`) on a thread of its own,
    /// taking the loop's turns until it returns; a command still waiting after `seconds` fails the test.
    func commandTakingTurns(
        _ arguments: [String], adding extra: [String: String] = [:], seconds: Double = 10,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> CommandOutcome {
        let running = RunningCommand(
            arguments + ["--config", configPath], environment: environment.merging(extra) { $1 })
        // No turn before the command has written its request (or ended), and a moment after it did: a command that
        // returned without waiting for the daemon's answer is seen to have returned before the turn that answers it.
        let request = FIFORequest(fifo: runtime + "/control")
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if running.ended(within: .milliseconds(5)) { break }
            guard request.isWritten() else { continue }
            // Short turns: the command's end wakes no turn, so a long one would sleep past it.
            turn(timeout: .milliseconds(20))
        }
        if let done = running.outcome { return done }
        Issue.record(
            "widgetd \(arguments.joined(separator: " ")) still running after \(seconds) s",
            sourceLocation: sourceLocation)
        return CommandOutcome(status: -1, stdout: "", stderr: "")
    }

    /// Runs a command that has no daemon in mind (`import`, `check`) with `environment` alone, as the binary runs it.
    static func commandWithoutDaemon(_ arguments: [String], environment: [String: String]) -> CommandOutcome {
        run(arguments, environment: environment)
    }

    /// Runs `widgetd run` as the binary does, with the launcher the executable hands the CLI (`RunCommand`), for a
    /// start that must be refused while this daemon runs: on a thread of its own, so that one that started after all
    /// fails the test after `seconds` instead of hanging it.
    func startRefused(seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation) -> CommandOutcome? {
        let arguments = ["run", "--config", configPath]
        let environment = environment
        let result = Mutex<CommandOutcome?>(nil)
        let end = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let outcome = DrivenDaemon.run(
                arguments, environment: environment, daemon: DaemonLauncher(run: RunCommand.run))
            result.withLock { $0 = outcome }
            end.signal()
        }
        guard end.wait(timeout: .now() + seconds) == .success else {
            Issue.record("a second daemon started beside the running one", sourceLocation: sourceLocation)
            return nil
        }
        return result.withLock { $0 }
    }

    /// `run` starts no second daemon here, unless the test asks: one runs in this process already.
    private static var noDaemon: DaemonLauncher {
        DaemonLauncher { _, _, _, _, _, reportError in
            reportError("the test runs its daemon itself")
            return ExitCode.failure
        }
    }

    fileprivate static func run(
        _ arguments: [String], environment: [String: String], daemon: DaemonLauncher = noDaemon
    ) -> CommandOutcome {
        let printed = Mutex<(out: String, err: String)>(("", ""))
        let console = Console(
            out: { line in printed.withLock { $0.out += line + "\n" } },
            err: { line in printed.withLock { $0.err += line + "\n" } })
        let status = DaemonState.$daemonInThisProcessIsWidgetd.withValue(true) {
            WidgetdMain.run(arguments, environment: environment, console: console, daemon: daemon)
        }
        let text = printed.withLock { $0 }
        return CommandOutcome(status: status, stdout: text.out, stderr: text.err)
    }
}

/// Whether a request waits in the daemon's FIFO, seen through a reader of its own that reads nothing: once one was, the
/// daemon's turns take it in, and it counts as written from then on.
private final class FIFORequest {
    private let reader: Int32
    private var written = false

    init(fifo: String) {
        reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        // No FIFO: nothing to wait for before a turn.
        written = reader < 0
    }

    deinit {
        if reader >= 0 { close(reader) }
    }

    func isWritten() -> Bool {
        if !written {
            var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            written = poll(&ready, 1, 0) == 1 && ready.revents & Int16(POLLIN) != 0
        }
        return written
    }
}
