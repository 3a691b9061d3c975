import Foundation

/// Where a command's output goes: the real stdout and stderr, or buffers in tests.
struct Console: Sendable {
    var out: @Sendable (String) -> Void
    var err: @Sendable (String) -> Void

    /// Writes lines to the process's stdout and stderr.
    static let standard = Console(
        out: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
        err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })

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
    /// `list`: the daemon is not running, so nothing listed is current (as `systemctl status` uses 3).
    static let notRunning: Int32 = 3
}
