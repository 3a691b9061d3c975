import Text

/// The part of a source line a diagnostic quotes, and the caret line under it.
///
/// A line wider than `maxWidth` columns is cut to a window around the column, with "…" where it was cut, so a
/// diagnostic on a 1 MB line prints about a hundred columns instead of the megabyte (and 8,000 of them do not print
/// 8,000 megabytes). Widths are display widths: a wide character takes two columns of the budget and two spaces in
/// the caret line. Tabs are kept in both lines, so the caret lines up however the terminal expands them, and count
/// as 8 columns. Control characters would act on the terminal, so they show as U+FFFD.
public struct SourceExcerpt: Sendable, Hashable {
    /// Most columns of the line shown, not counting the "…" marks.
    public static let maxWidth = 100
    /// Columns kept before the column when the line has to be cut on both sides.
    static let widthBefore = 40

    /// The shown part of the line.
    public let text: String
    /// Spaces (and the line's tabs) up to the column, then `^`.
    public let caret: String

    /// The excerpt of `line` around the 1-based `column`, counted in Unicode scalars as libyaml counts; a column past
    /// the end puts the caret just after the line.
    public init(line: Substring, column: Int) {
        let scalars = line.unicodeScalars
        let target =
            scalars.index(scalars.startIndex, offsetBy: max(column - 1, 0), limitedBy: scalars.endIndex)
            ?? scalars.endIndex

        // Right of the column first, so a line that ends soon leaves its budget to the left.
        var end = target
        var rightWidth = 0
        while end < scalars.endIndex {
            let width = Self.width(of: scalars[end])
            guard rightWidth + width <= Self.maxWidth - Self.widthBefore else { break }
            rightWidth += width
            end = scalars.index(after: end)
        }
        var start = target
        var leftWidth = 0
        while start > scalars.startIndex {
            let previous = scalars.index(before: start)
            let width = Self.width(of: scalars[previous])
            guard leftWidth + width + rightWidth <= Self.maxWidth else { break }
            leftWidth += width
            start = previous
        }
        // The left side used less than its share: give the rest to the right.
        while end < scalars.endIndex {
            let width = Self.width(of: scalars[end])
            guard leftWidth + rightWidth + width <= Self.maxWidth else { break }
            rightWidth += width
            end = scalars.index(after: end)
        }

        let cutLeft = start > scalars.startIndex
        var text = cutLeft ? "…" : ""
        var caret = cutLeft ? " " : ""
        var index = start
        while index < end {
            let scalar = scalars[index]
            let shown = Self.isControl(scalar) ? "\u{FFFD}" : scalar
            text.unicodeScalars.append(shown)
            if index < target {
                caret += scalar == "\t" ? "\t" : String(repeating: " ", count: Self.width(of: scalar))
            }
            index = scalars.index(after: index)
        }
        if end < scalars.endIndex {
            text += "…"
        }
        self.text = text
        self.caret = caret + "^"
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
    }

    /// Columns a scalar takes: tabs count as 8 against the budget; controls show as one U+FFFD.
    private static func width(of scalar: Unicode.Scalar) -> Int {
        if scalar == "\t" { return 8 }
        if isControl(scalar) { return 1 }
        return DisplayWidth.of(Character(scalar))
    }
}
