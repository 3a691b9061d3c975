import FoundationEssentials

/// Log levels, from the most to the least detailed.
enum LogLevel: Int, Comparable, CaseIterable, Sendable {
    case debug, info, warning, error

    var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }

    init?(name: String) {
        guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = level
    }

    static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The syslog priority the journal files a line under (sd-daemon(3)'s `<3>` prefixes).
    var journalPriority: Int {
        switch self {
        case .debug: 7
        case .info: 6
        case .warning: 4
        case .error: 3
        }
    }
}

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
