import Foundation

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
}

/// The daemon's log: one line per event on a sink (stderr in the daemon; systemd's journal adds the time).
///
/// Every message is escaped (`LogText.escaped`): whatever text from outside it quotes, a line stays one line with no
/// control characters.
struct Log: Sendable {
    var level: LogLevel
    var sink: @Sendable (String) -> Void

    /// Standard error, written with `write(2)`: a failing write is counted, never fatal (`StandardErrorLog`).
    static func standardError(level: LogLevel) -> Log {
        let stream = StandardErrorLog()
        return Log(level: level) { line in stream.write(line) }
    }

    func callAsFunction(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level >= self.level else { return }
        sink("widgetd: \(level.name): \(LogText.escaped(message()))")
    }
}
