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
    /// Scalars looked at on each side of the column: enough for the window, however many zero-width marks it holds.
    static let reach = 1000

    /// The shown part of the line.
    public let text: String
    /// Spaces (and the line's tabs) up to the column, then `^`.
    public let caret: String

    /// The excerpt of `line` around the 1-based `column`, counted in Unicode scalars as libyaml counts; a column past
    /// the end puts the caret just after the line. The line is taken in whole characters (grapheme clusters): a window
    /// never cuts a flag or an emoji sequence in two, each takes the width a terminal gives it (a flag 2, not 2 per
    /// regional indicator), and a column inside one puts the caret under its start.
    public init(line: Substring, column: Int) {
        // Only the scalars within `reach` of the column are looked at, so a megabyte line costs its window, not its
        // length, at each of its diagnostics.
        let scalars = line.unicodeScalars
        let columnIndex =
            scalars.index(scalars.startIndex, offsetBy: max(column - 1, 0), limitedBy: scalars.endIndex)
            ?? scalars.endIndex
        let lower =
            scalars.index(columnIndex, offsetBy: -Self.reach, limitedBy: scalars.startIndex) ?? scalars.startIndex
        let upper = scalars.index(columnIndex, offsetBy: Self.reach, limitedBy: scalars.endIndex) ?? scalars.endIndex
        let moreLeft = lower > scalars.startIndex
        let moreRight = upper < scalars.endIndex
        let near = Substring(scalars[lower..<upper])
        let column = scalars.distance(from: lower, to: columnIndex) + 1
        var units: [Unit] = []
        var index = near.startIndex
        while index < near.endIndex {
            let next = near.index(after: index)
            units.append(Unit(near[index..<next]))
            index = next
        }
        // The character holding scalar `column`.
        var target = units.count
        var scalarsBefore = 0
        for (position, unit) in units.enumerated() {
            if scalarsBefore + unit.scalars > column - 1 {
                target = position
                break
            }
            scalarsBefore += unit.scalars
        }

        // Right of the column first, so a line that ends soon leaves its budget to the left.
        var end = target
        var rightWidth = 0
        while end < units.count, rightWidth + units[end].width <= Self.maxWidth - Self.widthBefore {
            rightWidth += units[end].width
            end += 1
        }
        var start = target
        var leftWidth = 0
        while start > 0, leftWidth + units[start - 1].width + rightWidth <= Self.maxWidth {
            leftWidth += units[start - 1].width
            start -= 1
        }
        // The left side used less than its share: give the rest to the right.
        while end < units.count, leftWidth + rightWidth + units[end].width <= Self.maxWidth {
            rightWidth += units[end].width
            end += 1
        }

        let cutLeft = start > 0 || moreLeft
        var text = cutLeft ? "…" : ""
        var caret = cutLeft ? " " : ""
        for position in start..<end {
            let unit = units[position]
            text += unit.shown
            if position < target {
                caret += unit.text == "\t" ? "\t" : String(repeating: " ", count: unit.width)
            }
        }
        if end < units.count || moreRight {
            text += "…"
        }
        self.text = text
        self.caret = caret + "^"
    }

    /// One character of the line: how many scalars (libyaml's columns) it holds, the columns it takes, and how it is
    /// shown.
    private struct Unit {
        let text: Substring
        let scalars: Int
        let width: Int
        let shown: String

        init(_ text: Substring) {
            self.text = text
            scalars = text.unicodeScalars.count
            // Tabs count as 8 against the budget; controls show as one U+FFFD each.
            if text == "\t" {
                width = 8
                shown = "\t"
            } else if text.unicodeScalars.contains(where: SourceExcerpt.isControl) {
                width = scalars
                shown = String(repeating: "\u{FFFD}", count: scalars)
            } else {
                width = DisplayWidth.of(text)
                shown = String(text)
            }
        }
    }

    /// What a terminal would act on or reorder by (`TerminalText`'s set, bidirectional overrides included), but the
    /// tab, which is kept.
    fileprivate static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && TerminalText.isUnsafe(scalar)
    }

}
