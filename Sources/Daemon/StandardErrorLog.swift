import Glibc
import Runtime
import Synchronization
import System

/// The daemon's log lines on standard error, written with `write(2)`; a failed write is counted, never fatal.
///
/// A log that cannot be written (a full disk, a journal that went away) must not stop the daemon: the bars still need
/// their files. Lost lines are counted, and the count is written before the next line that gets through, so a reader
/// sees that something is missing.
final class StandardErrorLog: Sendable {
    private struct Lost {
        var lines = 0
        var errno: Int32 = 0
    }

    private let descriptor: Int32
    /// Whether lines carry the journal's priority prefixes (`Log.journal`), so the lost-lines note does too.
    private let journal: Bool
    /// Held while writing, so lines from two threads never interleave.
    private let lost = Mutex(Lost())

    init(descriptor: Int32 = STDERR_FILENO, journal: Bool = false) {
        self.descriptor = descriptor
        self.journal = journal
    }

    /// Lines that could not be written and were not yet reported.
    var lostLines: Int { lost.withLock { $0.lines } }

    /// Writes `line` and a newline. Waits at most a second for a stalled non-blocking descriptor, then drops the line.
    func write(_ line: String) {
        lost.withLock { lost in
            if lost.lines > 0 {
                let reason = SystemError(call: "write", subject: "standard error", errno: lost.errno).reason
                let prefix = journal ? "<4>" : "widgetd: warning: "
                let note = "\(prefix)\(lost.lines) log lines were lost (\(reason))\n"
                guard StandardStreams.writeAll(Array(note.utf8), to: descriptor, patience: 1000) == nil else {
                    lost.lines += 1
                    return
                }
                lost.lines = 0
            }
            if let code = StandardStreams.writeAll(Array((line + "\n").utf8), to: descriptor, patience: 1000) {
                lost.lines += 1
                lost.errno = code
            }
        }
    }
}
