import Foundation

/// Where a command's output goes: the real stdout and stderr, or buffers in tests.
struct Console: Sendable {
    var out: @Sendable (String) -> Void
    var err: @Sendable (String) -> Void

    /// Writes lines to the process's stdout and stderr.
    ///
    /// With `write(2)`, not `FileHandle.write`, which stops the process with a trap when the reader has gone
    /// (`EPIPE` with `SIGPIPE` ignored, as waybar's children inherit it): a reader that stopped reading wanted
    /// nothing more, and the command's exit status says how it went.
    static let standard = Console(
        out: { writeAll($0 + "\n", to: STDOUT_FILENO) },
        err: { writeAll($0 + "\n", to: STDERR_FILENO) })

    /// Writes all of `text` to `descriptor`; gives up quietly on an error such as `EPIPE`.
    private static func writeAll(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Prints a usage error the way every command does: message, usage line, where to read more.
    func report(_ error: UsageError) {
        err("widgetd: error: \(error.message)")
        err("Usage: \(Help.usage(of: error.command))")
        err("See 'widgetd help\(error.command.map { " \($0.rawValue)" } ?? "")'.")
    }
}

/// Process exit codes (BSD sysexits for usage).
enum ExitCode {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64
}
