import FoundationEssentials
import Runtime

/// The daemon's log: one line per event on a sink (stderr in the daemon; systemd's journal adds the time).
///
/// Every message is escaped (`LogText.escaped`): whatever text from outside it quotes, a line stays one line with no
/// control characters, so each line carries exactly one prefix.
struct Log: Sendable {
    var level: LogLevel
    /// Lines start with the journal's priority (`<3>message`) instead of `widgetd: error: `: standard error is
    /// systemd's journal stream (`JournalStream`), which files each line under its priority and names the unit itself.
    var journal = false
    var sink: @Sendable (String) -> Void

    /// Standard error, written with `write(2)`: a failing write is counted, never fatal (`StandardErrorLog`). With
    /// `journal`, lines carry priority prefixes.
    static func standardError(level: LogLevel, journal: Bool = false) -> Log {
        let stream = StandardErrorLog(journal: journal)
        return Log(level: level, journal: journal) { line in stream.write(line) }
    }

    func callAsFunction(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level >= self.level else { return }
        if journal {
            sink("<\(level.journalPriority)>\(LogText.escaped(message()))")
        } else {
            sink("widgetd: \(level.name): \(LogText.escaped(message()))")
        }
    }
}
