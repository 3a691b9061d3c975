import Basics
import Foundation
import Testing

/// The trimming and replacing helpers against the Foundation methods they replace (issue 15).
@Suite("trimming and replacing text")
struct TrimmingTests {
    static let texts = [
        "", " ", "  a b  ", "\t\na\r\n", "\u{A0}x\u{3000}", "\u{2028}y\u{85}", " \u{301}z", "x\u{200B}", "\r\n",
        "é ", "\u{FEFF}w", "\u{1680}v\u{202F}",
    ]

    @Test(arguments: texts)
    func trimmingMatchesFoundation(_ text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmingNewlines() == text.trimmingCharacters(in: .newlines))
        #expect(text.trimming(anyOf: "[] \"") == text.trimmingCharacters(in: CharacterSet(charactersIn: "[] \"")))
    }

    @Test func aSubstringTrimsToAString() {
        let line = "  [x]  ".dropFirst()
        #expect(line.trimmingWhitespace() == "[x]")
        #expect(line.trimming(anyOf: "[] ") == "x")
    }

    @Test(arguments: [
        ("it's", "'", "'\\''"), ("a-b--c", "-", "\\-"), ("\\n", "\\", "\\e"), ("aaa", "aa", "b"), ("", "x", "y"),
        ("x", "", "y"), ("é", "e", "E"),
    ])
    func replacingAllMatchesReplacingOccurrences(_ text: String, _ target: String, _ replacement: String) {
        #expect(
            text.replacingAll(target, with: replacement) == text.replacingOccurrences(of: target, with: replacement))
    }

    /// Where Foundation compares whole Characters and so leaves a quote followed by a combining accent unescaped —
    /// which ends a shell's single-quoted string early — `replacingAll` replaces it.
    @Test func aQuoteBeforeACombiningAccentIsStillReplaced() {
        #expect("it'\u{301}s".replacingAll("'", with: "'\\''") == "it'\\''\u{301}s")
        #expect(
            "it'\u{301}s".replacingOccurrences(of: "'", with: "'\\''") == "it'\u{301}s", "Foundation's, for the record")
        #expect("e\u{301}".replacingAll("e", with: "E") == "E\u{301}")
    }
}
