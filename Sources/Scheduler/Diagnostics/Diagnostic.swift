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

    public init(_ message: String, file: String, at mark: YAMLMark?, severity: Severity = .error) {
        self.severity = severity
        self.message = message
        self.file = file
        self.mark = mark
    }

    /// `file:line:col: error: message`, without the source snippet.
    public var headline: String {
        guard let mark else { return "\(file): \(severity.rawValue): \(message)" }
        return "\(file):\(mark.line):\(mark.column): \(severity.rawValue): \(message)"
    }

    /// The headline, then the source line and a caret under the column when the source is at hand.
    public func rendered(source: SourceLines?) -> String {
        guard let mark, let line = source?.line(mark.line) else { return headline }
        return headline + "\n" + line + "\n" + SourceLines.caret(under: mark.column, in: line)
    }
}

/// A file's text split into lines, for quoting the line a diagnostic points at.
public struct SourceLines: Sendable {
    private let lines: [Substring]

    public init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.last == "\r" ? line.dropLast() : line
        }
    }

    /// The 1-based line, or nil past the end.
    public func line(_ number: Int) -> String? {
        guard number >= 1, number <= lines.count else { return nil }
        return String(lines[number - 1])
    }

    /// A caret under the 1-based `column` (counted in Unicode scalars, as libyaml counts), keeping the line's
    /// tabs so the caret lines up however the terminal expands them, and doubling under wide characters.
    public static func caret(under column: Int, in line: String) -> String {
        var prefix = ""
        for (index, scalar) in line.unicodeScalars.enumerated() where index < column - 1 {
            if scalar == "\t" {
                prefix.append("\t")
            } else {
                prefix.append(String(repeating: " ", count: DisplayWidth.of(Character(scalar))))
            }
        }
        return prefix + "^"
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
