import Diagnostics
import YAML

extension SourceLines {
    /// Where character `offset` of a scalar's value is in the source, for errors inside a value (a cron field, a
    /// clock format's conversion).
    ///
    /// A value is not a slice of its line: a block scalar (`|`, `>`) starts on the line after its indicator, and a
    /// multi-line plain or quoted scalar loses its indentation and line breaks to folding. What survives in order is
    /// every non-blank character, so this finds the value's n-th non-blank character among the source's, starting
    /// after the quote or the block header. An offset at a blank or the end points just after the non-blank
    /// character before it. Escapes in double quotes can shift the answer within the scalar, never off its lines.
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
        var lastNonBlank: YAMLMark?
        // The source of a value has at least as many non-blank characters as the value (escapes only add some), so
        // the walk ends inside the scalar; the budget only guards against a mark that is not the scalar's.
        var budget = 8 * text.utf8.count + 256
        while let line = line(lineNumber), budget > 0 {
            let length = line.unicodeScalars.count
            var scalars = line.unicodeScalars.dropFirst(column).makeIterator()
            var previous: Unicode.Scalar?
            while let scalar = scalars.next(), budget > 0 {
                column += 1
                budget -= 1
                defer { previous = scalar }
                // A double-quoted line may end in `\` to join the next line without a space.
                if style == .doubleQuoted, scalar == "\\", previous != "\\", column == length {
                    continue
                }
                guard !Self.isBlank(scalar) else { continue }
                let here = YAMLMark(line: lineNumber, column: column)
                if seen == before {
                    return pointsAtNonBlank ? here : lastNonBlank.map { $0.advanced(by: 1) } ?? here
                }
                seen += 1
                lastNonBlank = here
                if !pointsAtNonBlank, seen == before, before > 0 {
                    return here.advanced(by: 1)
                }
            }
            lineNumber += 1
            column = 0
        }
        return lastNonBlank.map { $0.advanced(by: 1) } ?? start
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
