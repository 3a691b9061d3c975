import FoundationEssentials
import Glibc
import Runtime

/// Where a command's output goes: the real stdout and stderr, or buffers in tests.
struct Console: Sendable {
    var out: @Sendable (String) -> Void
    var err: @Sendable (String) -> Void

    /// Writes lines to the process's stdout and stderr with `write(2)`. A write that fails (a reader that went away, a
    /// full disk) ends the process quietly with status 1: there is no one left to tell, and Foundation's
    /// `FileHandle.write` would trap instead.
    static let standard = Console(
        out: { writeOrExit($0, to: STDOUT_FILENO) },
        err: { writeOrExit($0, to: STDERR_FILENO) })

    private static func writeOrExit(_ line: String, to descriptor: Int32) {
        guard StandardStreams.writeAll(Array((line + "\n").utf8), to: descriptor) == nil else {
            // _exit, not exit: other threads may be running (a preview's task), and nothing is buffered in stdio.
            _exit(ExitCode.failure)
        }
    }

    /// Prints a usage error the way every command does: message, usage line, where to read more.
    func report(_ error: UsageError) {
        err("widgetd: error: \(error.message)")
        err("Usage: \(Help.usage(of: error.command))")
        err("See 'widgetd help\(error.command.map { " \($0.rawValue)" } ?? "")'.")
    }
}
