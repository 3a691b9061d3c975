/// A 1-based line and column in a YAML source.
///
/// The column counts Unicode scalars, as libyaml does, so a line holding `é: x` has its `x` at column 4 even though
/// `é` takes two UTF-8 bytes. libyaml's own marks are 0-based; the loader converts them where it reads them so no
/// caller ever sees a 0-based position.
public struct YAMLMark: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, in Unicode scalars.
    public var column: Int

    /// Creates a mark from a 1-based line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Orders marks as they appear in the source: by line, then by column.
    public static func < (lhs: YAMLMark, rhs: YAMLMark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `line L, column C`, the form used inside loader messages.
    public var description: String { "line \(line), column \(column)" }
}
