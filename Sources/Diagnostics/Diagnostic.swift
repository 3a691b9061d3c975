import YAML

/// A problem found in a file, with its place, rendered the way compilers print theirs.
public struct Diagnostic: Error, Sendable, Hashable {
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
    }

    public var severity: Severity
    public var message: String
    /// The file as the user named it.
    public var file: String
    /// Where in the file; nil when the problem is the file as a whole (missing, unreadable).
    public var mark: YAMLMark?

    /// Longest message kept whole, in characters. Messages quote the user's keys and values, which may be 64 KiB
    /// long; a longer message keeps its start and its end (where "did you mean" goes) around a "…".
    public static let maxMessageLength = 300

    public init(_ message: String, file: String, at mark: YAMLMark?, severity: Severity = .error) {
        self.severity = severity
        self.message = Self.shortened(message)
        self.file = file
        self.mark = mark
    }

    private static func shortened(_ message: String) -> String {
        guard message.utf8.count > maxMessageLength else { return message }
        let count = message.count
        guard count > maxMessageLength else { return message }
        let half = maxMessageLength / 2
        return message.prefix(half) + "…" + message.suffix(half)
    }

    /// `file:line:col: error: message`, without the source snippet.
    public var headline: String {
        guard let mark else { return "\(file): \(severity.rawValue): \(message)" }
        return "\(file):\(mark.line):\(mark.column): \(severity.rawValue): \(message)"
    }

    /// `file:line:col: message`: the headline for a log line, whose own prefix already says the severity
    /// (`widgetd: error: w.yaml:3:11: unknown kind …`, not `widgetd: error: w.yaml:3:11: error: …`).
    public var place: String {
        guard let mark else { return "\(file): \(message)" }
        return "\(file):\(mark.line):\(mark.column): \(message)"
    }

    /// The headline, then the source line and a caret under the column when the source is at hand. A long line is
    /// shown as a window around the column (`SourceExcerpt`), so output stays bounded however long the line is.
    public func rendered(source: SourceLines?) -> String {
        guard let mark, let line = source?.line(mark.line) else { return headline }
        let excerpt = SourceExcerpt(line: line, column: mark.column)
        return headline + "\n" + excerpt.text + "\n" + excerpt.caret
    }
}

/// A file's text split into lines, for quoting the line a diagnostic points at.
///
/// Lines end where libyaml ends them (CR LF, CR, LF, NEL, LS, PS), so line numbers agree with its marks; a CR LF
/// file quotes its lines like an LF one.
public struct SourceLines: Sendable {
    private let text: String
    /// Where each line starts and ends (without its break) in `text`'s scalars.
    private let lines: [Range<String.Index>]

    public init(_ text: String) {
        self.text = text
        let scalars = text.unicodeScalars
        var lines: [Range<String.Index>] = []
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            switch scalar {
            case "\r", "\n", "\u{85}", "\u{2028}", "\u{2029}":
                lines.append(start..<index)
                var next = scalars.index(after: index)
                if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" {
                    next = scalars.index(after: next)
                }
                start = next
                index = next
            default:
                index = scalars.index(after: index)
            }
        }
        lines.append(start..<scalars.endIndex)
        self.lines = lines
    }

    /// How many lines the text has (a final line break starts an empty last line).
    public var count: Int { lines.count }

    /// The 1-based line, or nil past the end.
    public func line(_ number: Int) -> Substring? {
        guard number >= 1, number <= lines.count else { return nil }
        return text[lines[number - 1]]
    }
}

extension [Diagnostic] {
    /// Diagnostics in file order: those without a place first, then by line and column.
    public func sortedByPlace() -> [Diagnostic] {
        enumerated().sorted { lhs, rhs in
            switch (lhs.element.mark, rhs.element.mark) {
            case (nil, nil): lhs.offset < rhs.offset
            case (nil, _): true
            case (_, nil): false
            case (let l?, let r?): l == r ? lhs.offset < rhs.offset : l < r
            }
        }.map(\.element)
    }
}
