import Diagnostics
import TestSupport
import Testing

/// `SourceLines` finds line breaks in UTF-8 bytes; these hold it to the scalar-by-scalar walk it replaced, which is the
/// definition: a line ends at LF, CR, CR LF, U+0085, U+2028 or U+2029.
@Suite("Source lines")
struct SourceLinesTests {
    /// The walk `SourceLines` used to make, over scalars.
    static func referenceLines(_ text: String) -> [Substring] {
        let scalars = text.unicodeScalars
        var lines: [Substring] = []
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            switch scalar {
            case "\r", "\n", "\u{85}", "\u{2028}", "\u{2029}":
                lines.append(text[start..<index])
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
        lines.append(text[start..<scalars.endIndex])
        return lines
    }

    static func lines(_ source: SourceLines) -> [Substring] {
        (1...source.count).map { source.line($0)! }
    }

    @Test(arguments: [
        "", "\n", "a", "a\nb", "a\r\nb\r\n", "a\rb\r", "\r\r\n\n", "x\u{85}y\u{2028}z\u{2029}",
        "émoji ⭐\nkind: clock\r\n  format: \"%H:%M\"\u{2028}", "\u{C2}\u{A0}no break\u{E280}", "🙂\r",
    ])
    func breaksAreWhereTheScalarWalkFindsThem(_ text: String) {
        let source = SourceLines(text)
        #expect(Self.lines(source) == Self.referenceLines(text))
        #expect(source.line(0) == nil)
        #expect(source.line(source.count + 1) == nil)
    }

    /// Random texts from pieces that look like breaks and pieces that share their bytes without being breaks (U+00A0
    /// starts with `C2` as U+0085 does, U+2026 with `E2 80` as U+2028 does).
    @Test func randomTextsSplitAsTheScalarWalkSplitsThem() {
        let pieces = [
            "a", "kind: clock", " ", "\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}", "\u{A0}", "\u{2026}", "⭐",
            "é", "🙂", "\t",
        ]
        var generator = SplitMix64(state: 15)
        for _ in 0..<2000 {
            let text = (0..<Int(generator.next() % 12)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))]
            }
            .joined()
            #expect(Self.lines(SourceLines(text)) == Self.referenceLines(text), "\(Array(text.unicodeScalars))")
        }
    }

}
