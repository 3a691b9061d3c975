import TestSupport
import Testing

@testable import Text

@Suite("DisplayWidth")
struct DisplayWidthTests {
    // MARK: - Single clusters

    /// Checks one grapheme cluster through both entry points, which take different paths (Character vs. scanner).
    private func expectCluster(_ text: String, width: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(text.count == 1, "sample must be one grapheme cluster", sourceLocation: sourceLocation)
        let character = try #require(text.first, sourceLocation: sourceLocation)
        #expect(DisplayWidth.of(character) == width, "of(Character)", sourceLocation: sourceLocation)
        #expect(DisplayWidth.of(text) == width, "of(String)", sourceLocation: sourceLocation)
    }

    @Test("every printable ASCII character is one cell")
    func printableASCII() throws {
        for value in UInt8(0x20)...0x7E {
            try expectCluster(String(UnicodeScalar(value)), width: 1)
        }
    }

    @Test(
        "ASCII strings",
        arguments: [
            ("", 0), ("a", 1), ("hello", 5), ("CPU 12% · ", 10), ("  padded  ", 10), ("a\tb", 2), ("line\r\nbreak", 9),
        ])
    func asciiStrings(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    @Test(
        "control characters are zero",
        arguments: [
            "\u{0}", "\t", "\n", "\r", "\r\n", "\u{1B}", "\u{7F}", "\u{85}", "\u{9F}",
        ])
    func controls(text: String) throws {
        try expectCluster(text, width: 0)
    }

    @Test(
        "zero-width scalars on their own are zero",
        arguments: [
            "\u{200D}",  // zero-width joiner alone
            "\u{200B}",  // zero-width space
            "\u{200C}",  // zero-width non-joiner
            "\u{FE0F}",  // VS16 without a base
            "\u{FE0E}",  // VS15 without a base
            "\u{FEFF}",  // byte order mark
            "\u{AD}",  // soft hyphen
            "\u{200E}",  // left-to-right mark
            "\u{2060}",  // word joiner
            "\u{2028}",  // line separator
            "\u{301}",  // combining acute accent with no base
            "\u{20E3}",  // combining enclosing keycap with no base
        ])
    func zeroWidthScalars(text: String) throws {
        try expectCluster(text, width: 0)
    }

    @Test(
        "combining marks add nothing to their base",
        arguments: [
            ("e\u{301}", 1),  // e + combining acute
            ("\u{E9}", 1),  // precomposed é
            ("a\u{301}\u{302}\u{303}\u{304}", 1),  // stacked marks
            ("\u{5D0}\u{5B8}", 1),  // Hebrew alef + qamats
            ("\u{915}\u{94D}", 1),  // Devanagari ka + virama
            ("\u{304B}\u{3099}", 2),  // hiragana ka + combining voiced mark (itself listed as Wide)
            ("\u{4E2D}\u{301}", 2),  // a mark on a wide base keeps it wide
        ])
    func combiningMarks(text: String, width: Int) throws {
        try expectCluster(text, width: width)
    }

    @Test(
        "East Asian Wide and Fullwidth are two cells",
        arguments: [
            "中", "日", "本", "語", "あ", "ア", "한", "ㄱ", "\u{3000}", "，", "Ａ", "￥", "〈", "𠀀", "\u{2FFFD}",
            "\u{1100}\u{1161}\u{11A8}",  // Hangul syllable spelled with conjoining jamo
        ])
    func eastAsianWide(text: String) throws {
        try expectCluster(text, width: 2)
    }

    @Test(
        "narrow and ambiguous scripts are one cell",
        arguments: [
            "ｱ",  // halfwidth katakana
            "…", "·", "é", "ß", "Ω", "Ж", "א", "ع", "क", "ก", "€", "→", "█", "\u{E000}",
        ])
    func narrow(text: String) throws {
        try expectCluster(text, width: 1)
    }

    @Test(
        "emoji are two cells",
        arguments: [
            "😀",  // emoticon
            "\u{2B50}",  // ⭐ BMP emoji with default emoji presentation
            "\u{231A}",  // ⌚
            "\u{2764}\u{FE0F}",  // ❤️ text-default heart made emoji by VS16
            "\u{263A}\u{FE0F}",  // ☺️
            "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",  // 👨‍👩‍👧 ZWJ family
            "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}",  // 🏳️‍🌈 ZWJ sequence on a text-default base
            "\u{1F3F3}\u{200D}\u{1F308}",  // the same without VS16, still joined into one emoji
            "\u{2764}\u{FE0F}\u{200D}\u{1F525}",  // ❤️‍🔥
            "🇩🇪",  // flag: regional-indicator pair
            "1\u{FE0F}\u{20E3}",  // 1️⃣ keycap
            "#\u{FE0F}\u{20E3}",  // #️⃣ keycap
            "\u{1F44D}\u{1F3FD}",  // 👍🏽 skin-tone modifier
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",  // 🏴󠁧󠁢󠁳󠁣󠁴󠁿 tag sequence
            "\u{1F1E9}",  // a lone regional indicator still has emoji presentation
            "\u{1FAE8}",  // 🫨 Unicode 15
        ])
    func emoji(text: String) throws {
        try expectCluster(text, width: 2)
    }

    @Test(
        "text-presentation symbols stay one cell",
        arguments: [
            "\u{2764}",  // ❤ without VS16
            "\u{263A}",  // ☺
            "\u{2122}",  // ™
            "1\u{20E3}",  // keycap mark without VS16 is not an emoji keycap sequence
            "a\u{FE0F}",  // VS16 after a non-emoji base means nothing
        ])
    func textPresentation(text: String) throws {
        try expectCluster(text, width: 1)
    }

    @Test(
        "strings sum their clusters",
        arguments: [
            ("日本語", 6), ("한국어", 6), ("a中b", 4), ("🇩🇪🇫🇷", 4), ("👨‍👩‍👧x", 3), ("e\u{301}te\u{301}", 3),
            ("⭐ 4.5", 6), ("1️⃣2️⃣", 4), ("\u{200D}😀", 2), ("🔋 85%", 6),
        ])
    func mixedStrings(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    @Test("substrings measure only their slice")
    func substrings() {
        let text = "ab日本語cd"
        #expect(DisplayWidth.of(text.dropFirst(2)) == 8)
        #expect(DisplayWidth.of(text.prefix(3)) == 4)
        #expect(DisplayWidth.of(text[text.startIndex..<text.startIndex]) == 0)
    }

    @Test("the wide table is sorted and non-overlapping, so binary search finds every range")
    func wideTableIsSorted() {
        let ranges = DisplayWidth.wideRanges
        for (previous, next) in zip(ranges, ranges.dropFirst()) {
            // A gap of at least one code point: touching ranges should have been merged.
            #expect(previous.upperBound + 1 < next.lowerBound, "\(previous) before \(next)")
        }
        for range in ranges {
            #expect(DisplayWidth.isEastAsianWide(range.lowerBound), "\(range)")
            #expect(DisplayWidth.isEastAsianWide(range.upperBound), "\(range)")
            #expect(!DisplayWidth.isEastAsianWide(range.lowerBound - 1), "\(range)")
            #expect(!DisplayWidth.isEastAsianWide(range.upperBound + 1), "\(range)")
        }
    }

    @Test("self-contained scalars never share a cluster with one another")
    func selfContainedScalars() {
        // Grapheme rules join a pair only through Extend, ZWJ or SpacingMark (checked by "a" + x), Prepend or CR
        // (x + "a"), or a Hangul jamo or regional-indicator pair (x + x); a scalar passing all three forms no cluster
        // with any other scalar that passes them.
        var checked = 0
        for value in UInt32(0)...0x10FFFF where DisplayWidth.isSelfContained(value) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let x = String(Character(scalar))
            let ok = ("a" + x).count == 2 && (x + "a").count == 2 && (x + x).count == 2
            #expect(ok, "U+\(String(value, radix: 16, uppercase: true))")
            checked += 1
        }
        #expect(checked > 50_000)
    }

    @Test("the scanner finds the same cluster boundaries as String")
    func scannerBoundaries() {
        for text in Self.corpus {
            let expected =
                text.indices.dropFirst().map { text.utf8.distance(from: text.startIndex, to: $0) }
                + (text.isEmpty ? [] : [text.utf8.count])
            let found = DisplayWidth.withScanner(over: text[...]) { scanner in
                var ends: [Int] = []
                while let cluster = scanner.next() {
                    ends.append(cluster.end)
                }
                return ends
            }
            #expect(found == expected, "\(text.unicodeScalars.map(\.value))")
        }
    }

    // MARK: - Truncation

    @Test(
        "fitting text comes back unchanged",
        arguments: [
            ("hello", 5), ("hello", 40), ("日本", 4), ("e\u{301}", 1), ("👨‍👩‍👧", 2), ("", 1), ("\u{200D}", 1),
            ("🇩🇪 DE", 5), ("a\u{301}\u{302}\u{303}", 1),
        ])
    func fittingUnchanged(text: String, budget: Int) {
        let result = DisplayWidth.truncate(text, toWidth: budget)
        #expect(result == text)
        // Unicode-equal is not enough: the caller gets its own bytes back.
        #expect(Array(result.utf8) == Array(text.utf8))
    }

    @Test(
        "cut text ends in an ellipsis within the budget",
        arguments: [
            ("hello world", 5, "hell…"),
            ("hello world", 10, "hello wor…"),
            ("日本語", 5, "日本…"),
            ("日本語テキスト", 9, "日本語テ…"),
            ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}…"),
            ("👨‍👩‍👧👨‍👩‍👧", 3, "👨‍👩‍👧…"),
            ("🇩🇪🇫🇷🇯🇵", 5, "🇩🇪🇫🇷…"),
            ("1️⃣2️⃣3️⃣", 4, "1️⃣…"),
            ("ab\ncd", 3, "ab…"),  // a control right before the cut is not kept
            ("\u{200B}abc", 2, "\u{200B}a…"),  // zero-width text before visible text stays
        ])
    func cut(text: String, budget: Int, expected: String) {
        let result = DisplayWidth.truncate(text, toWidth: budget)
        #expect(result == expected)
        #expect(DisplayWidth.of(result) <= budget)
    }

    @Test(
        "a budget in the middle of a wide character gives one cell less",
        arguments: [
            ("日本語", 4, "日…"),
            ("a日本", 3, "a…"),
            ("ab😀cd", 4, "ab…"),
            ("x🇩🇪y", 3, "x…"),
        ])
    func wideCharacterAtTheEdge(text: String, budget: Int, expected: String) {
        let result = DisplayWidth.truncate(text, toWidth: budget)
        #expect(result == expected)
        #expect(DisplayWidth.of(result) == budget - 1)
    }

    @Test("budget 0 and below give the empty string", arguments: [0, -1, Int.min])
    func noBudget(budget: Int) {
        for text in ["", "a", "hello", "日本", "😀", "\u{200D}"] {
            #expect(DisplayWidth.truncate(text, toWidth: budget) == "")
        }
    }

    @Test("the ellipsis is counted at the width it measures")
    func ellipsisWidth() {
        #expect(DisplayWidth.ellipsis == "…")
        #expect(DisplayWidth.of(DisplayWidth.ellipsis) == DisplayWidth.ellipsisWidth)
    }

    @Test("budget 1 keeps one narrow cell or only the ellipsis")
    func budgetOne() {
        #expect(DisplayWidth.truncate("", toWidth: 1) == "")
        #expect(DisplayWidth.truncate("a", toWidth: 1) == "a")
        #expect(DisplayWidth.truncate("e\u{301}", toWidth: 1) == "e\u{301}")
        #expect(DisplayWidth.truncate("ab", toWidth: 1) == "…")
        #expect(DisplayWidth.truncate("中", toWidth: 1) == "…")
        #expect(DisplayWidth.truncate("😀", toWidth: 1) == "…")
        #expect(DisplayWidth.truncate("🇩🇪", toWidth: 1) == "…")
    }

    // MARK: - Properties over a mixed corpus

    /// Pieces that the corpus strings are glued from; gluing also forms new clusters across pieces (a base followed
    /// by a lone mark, two lone regional indicators making a flag), which is part of what is being tested.
    private static let pieces: [String] = [
        // ASCII, Latin, other narrow scripts, combining marks
        "a", "Z", "7", " ", "%", "CPU", "·", "…", "→", "█", "é", "e\u{301}", "\u{301}", "a\u{301}\u{302}", "ß", "Ж",
        "ع", "\u{915}\u{94D}", "\u{915}", "\u{937}", "\u{E01}\u{E33}", "\u{600}", "\u{F0E7}",
        // wide, and the jamo, kana and marks that join them
        "中", "日本", "한", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{AC00}", "あ", "\u{3099}", "ｶ", "\u{FF9E}", "Ａ",
        "\u{3000}", "\u{302E}",
        // emoji and their joiners, modifiers and selectors
        "😀", "⭐", "\u{2764}", "\u{2764}\u{FE0F}", "👨‍👩‍👧", "🏳️‍🌈", "🇩🇪", "\u{1F1E9}", "\u{1F1EA}", "1️⃣", "👍🏽",
        "\u{1F3FD}", "\u{200D}", "\u{FE0F}", "\u{20E3}", "\u{200B}", "🔋 85%",
        // controls
        "\t", "\n", "\r\n", "\r", "\u{7F}", "\u{AD}",
    ]

    /// Deterministic SplitMix64, so a failing corpus string is reproducible.
    private struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private static let corpus: [String] = {
        var generator = SeededGenerator(state: 0x5749_4447_4554)
        var texts = pieces + ["", "hello, world", "日本語のテキスト", "Wi-Fi: 家のネットワーク 📶", "🎵 Björk — Jóga"]
        for _ in 0..<400 {
            let count = Int.random(in: 0...24, using: &generator)
            texts.append((0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        return texts
    }()

    @Test("measuring a string agrees with measuring its characters one by one")
    func stringMatchesCharacters() {
        for text in Self.corpus {
            let perCharacter = text.reduce(0) { $0 + DisplayWidth.of($1) }
            #expect(DisplayWidth.of(text) == perCharacter, "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test("truncation stays within every budget from 0 to 40 and never splits a cluster")
    func truncationProperties() {
        for text in Self.corpus {
            let width = DisplayWidth.of(text)
            let characters = Array(text)
            for budget in 0...40 {
                let result = DisplayWidth.truncate(text, toWidth: budget)
                let context = "budget \(budget), text \(text.unicodeScalars.map(\.value))"
                #expect(DisplayWidth.of(result) <= budget, "\(context)")
                if budget < 1 {
                    #expect(result.isEmpty, "\(context)")
                } else if width <= budget {
                    #expect(result == text, "\(context)")
                } else {
                    #expect(result.hasSuffix("…"), "\(context)")
                    let kept = String(result.dropLast())
                    // The original's own bytes, ending on one of its cluster boundaries: nothing split or merged.
                    #expect(text.utf8.starts(with: kept.utf8), "\(context)")
                    #expect(Array(kept) == Array(characters.prefix(kept.count)), "\(context)")
                    // The cut is as late as it can be: only a cluster of up to 2 cells failed to fit.
                    #expect(DisplayWidth.of(kept) >= budget - 2, "\(context)")
                }
            }
        }
    }
}
