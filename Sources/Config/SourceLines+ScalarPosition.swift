import Diagnostics
import YAML

extension SourceLines {
    /// Where character `offset` of a scalar's value is in the source, for errors inside a value (a cron field, a
    /// clock format's conversion).
    ///
    /// A value is not a slice of its line: a block scalar (`|`, `>`) starts on the line after its indicator, a
    /// multi-line plain or quoted scalar loses its indentation and line breaks to folding, and a quoted one has escapes
    /// (`\u00e9` or `\t` in double quotes, `''` in single ones) that are one character of the value each. What survives
    /// in order is every non-blank character, so this finds the value's n-th non-blank character among the source's,
    /// starting after the quote or the block header, an escape counting as the character it stands for. An offset at a
    /// blank or the end points just after the non-blank character before it.
    func mark(ofOffset offset: Int, in text: String, style: YAMLScalar.Style, at start: YAMLMark) -> YAMLMark {
        let characterEnd =
            text.index(text.startIndex, offsetBy: max(offset, 0), limitedBy: text.endIndex) ?? text.endIndex
        let before = text[..<characterEnd].unicodeScalars.lazy.filter { !Self.isBlank($0) }.count
        let pointsAtNonBlank = characterEnd < text.endIndex && !Self.isBlank(text.unicodeScalars[characterEnd])

        var lineNumber = start.line
        var column = start.column - 1
        switch style {
        case .literal, .folded:
            lineNumber += 1
            column = 0
        case .singleQuoted, .doubleQuoted:
            column += 1
        case .plain:
            break
        }
        var seen = 0
        // Just past the last non-blank character (or escape) seen: where an offset at a blank or the end points.
        var afterLastNonBlank: YAMLMark?
        // The source of a value has at least as many non-blank characters as the value (escapes only add some), so
        // the walk ends inside the scalar; the budget only guards against a mark that is not the scalar's.
        var budget = 8 * text.utf8.count + 256
        while let line = line(lineNumber), budget > 0 {
            let scalars = Array(line.unicodeScalars)
            var index = column
            while index < scalars.count, budget > 0 {
                budget -= 1
                let here = YAMLMark(line: lineNumber, column: index + 1)
                var length = 1
                var blank = Self.isBlank(scalars[index])
                if style == .doubleQuoted, scalars[index] == "\\" {
                    // A `\` that ends the line joins the next one without a space: no character of the value.
                    guard index + 1 < scalars.count else { break }
                    (length, blank) = Self.doubleQuotedEscape(in: scalars, at: index)
                } else if style == .singleQuoted, scalars[index] == "'", index + 1 < scalars.count,
                    scalars[index + 1] == "'"
                {
                    length = 2
                }
                index += length
                guard !blank else { continue }
                if seen == before {
                    return pointsAtNonBlank ? here : afterLastNonBlank ?? here
                }
                seen += 1
                afterLastNonBlank = here.advanced(by: length)
                if !pointsAtNonBlank, seen == before, before > 0, let after = afterLastNonBlank {
                    return after
                }
            }
            lineNumber += 1
            column = 0
        }
        return afterLastNonBlank ?? start
    }

    /// The escape at `index` (its `\`) of a double-quoted line: how many source characters it takes, and whether the
    /// character it stands for is blank (`\t`, `\n`, `\x20`, an escaped space or tab).
    private static func doubleQuotedEscape(in scalars: [Unicode.Scalar], at index: Int) -> (length: Int, blank: Bool) {
        let digits: Int
        switch scalars[index + 1] {
        case "x": digits = 2
        case "u": digits = 4
        case "U": digits = 8
        case "t", "n", "r", " ", "\t": return (2, true)
        default: return (2, false)
        }
        let hex = scalars[(index + 2)...].prefix(digits)
        var hexText = String.UnicodeScalarView()
        hexText.append(contentsOf: hex)
        let value = UInt32(String(hexText), radix: 16)
        return (2 + hex.count, value.flatMap(Unicode.Scalar.init).map(isBlank) ?? false)
    }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }
}

extension YAMLMark {
    fileprivate func advanced(by columns: Int) -> YAMLMark {
        YAMLMark(line: line, column: column + columns)
    }
}
