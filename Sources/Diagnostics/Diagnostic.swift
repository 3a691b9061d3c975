import Text
import YAML

/// A problem found in a file, with its place, rendered the way compilers print theirs.
public struct Diagnostic: Error, Sendable, Hashable {
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
    }

    /// What a program may act on, besides the message a person reads; most problems have none.
    public enum Code: Sendable, Hashable {
        /// A widget names a kind the registry lacks (this one): a typo, or a plugin installed after the daemon
        /// started.
        case unknownKind(String)
    }

    public var severity: Severity
    public var message: String
    /// The problem, for callers that act on it (`Daemon.reloadConfiguration`'s restart hint), not on its wording.
    public var code: Code?
    /// The file as the user named it.
    public var file: String
    /// Where in the file; nil when the problem is the file as a whole (missing, unreadable).
    public var mark: YAMLMark?

    /// Longest message kept whole, in characters. Messages quote the user's keys and values, which may be 64 KiB
    /// long; a longer message keeps its start and its end (where "did you mean" goes) around a "…".
    public static let maxMessageLength = 300

    public init(
        _ message: String, file: String, at mark: YAMLMark?, severity: Severity = .error, code: Code? = nil
    ) {
        self.severity = severity
        self.code = code
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

    /// The headline, then the source line and a caret under the column when the source is at hand: what `check`
    /// prints on a terminal. A long line is shown as a window around the column (`SourceExcerpt`), so output stays
    /// bounded however long the line is. A message quotes the file's values, which may hold line breaks (a block
    /// scalar) and terminal controls: they are escaped (`TerminalText`), so each diagnostic keeps its one headline.
    public func rendered(source: SourceLines?) -> String {
        let headline = TerminalText.escaped(headline)
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
    /// The whole file, as read: the daemon hands it on as the config it runs (`RunningConfig`).
    public let text: String
    /// Where each line starts and ends (without its break) in `text`.
    private let lines: [Range<String.Index>]

    public init(_ text: String) {
        self.text = text
        // Found in the UTF-8 bytes, not scalar by scalar: line breaks are all recognisable bytes, and decoding every
        // scalar is a cost `check` would pay on every file (docs/PERFORMANCE.md, "First writes and start-up").
        let offsets =
            text.utf8.withContiguousStorageIfAvailable(Self.lineRanges)
            ?? Array(text.utf8).withUnsafeBufferPointer(
                Self.lineRanges)
        let utf8 = text.utf8
        lines = offsets.map {
            utf8.index(utf8.startIndex, offsetBy: $0.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: $0.upperBound)
        }
    }

    /// Where each line starts and ends (without its break), as offsets in `bytes`, valid UTF-8. A line ends at a line
    /// feed, a carriage return, both in that order, or U+0085, U+2028 or U+2029; in valid UTF-8 their byte sequences
    /// (`C2 85`, `E2 80 A8`, `E2 80 A9`) are never part of another character.
    static func lineRanges(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        var index = 0
        let count = bytes.count
        func byte(_ offset: Int) -> UInt8? { index + offset < count ? bytes[index + offset] : nil }
        while index < count {
            let breakLength: Int
            switch bytes[index] {
            case 0x0A: breakLength = 1
            case 0x0D: breakLength = byte(1) == 0x0A ? 2 : 1
            case 0xC2: breakLength = byte(1) == 0x85 ? 2 : 0
            case 0xE2: breakLength = byte(1) == 0x80 && (byte(2) == 0xA8 || byte(2) == 0xA9) ? 3 : 0
            default: breakLength = 0
            }
            if breakLength > 0 {
                lines.append(start..<index)
                index += breakLength
                start = index
            } else {
                index += 1
            }
        }
        lines.append(start..<count)
        return lines
    }

    /// How many lines the text has (a final line break starts an empty last line).
    public var count: Int { lines.count }

    /// The 1-based line, or nil past the end.
    public func line(_ number: Int) -> Substring? {
        guard number >= 1, number <= lines.count else { return nil }
        let line = text[lines[number - 1]]
        // libyaml's columns on the first line do not count a byte order mark.
        return number == 1 && line.unicodeScalars.first == "\u{FEFF}"
            ? Substring(line.unicodeScalars.dropFirst()) : line
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
