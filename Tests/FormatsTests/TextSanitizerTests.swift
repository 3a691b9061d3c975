import Formats
import Testing

@Suite("text sanitizer")
struct TextSanitizerTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("a\nb", "a b"),
        ("a\r\n\tb", "a b"),
        ("\n\tlead and trail\n", "lead and trail"),
        ("two  spaces stay", "two  spaces stay"),
        ("nul\u{0}gone", "nulgone"),
        ("bell\u{7}del\u{7F}", "belldel"),
        ("\u{1B}[1;31mred\u{1B}[0m", "red"),
        ("title\u{1B}]0;set title\u{7}end", "titleend"),
        ("osc\u{1B}]8;;http://x\u{1B}\\link", "osclink"),
        ("charset\u{1B}(Bok", "charsetok"),
        ("lone escape\u{1B}", "lone escape"),
        ("c1\u{85}next\u{9B}line", "c1 nextline"),
        ("para\u{2029}graph", "para graph"),
        ("\u{0}\u{1B}\u{7}\n\t", ""),
        ("e\u{301}motion 漢字 👍🏽", "e\u{301}motion 漢字 👍🏽"),
    ])
    func singleLineRemovesControls(_ input: String, _ expected: String) {
        #expect(TextSanitizer.singleLine(input) == expected)
    }

    @Test func multiLineKeepsLineBreaks() {
        #expect(TextSanitizer.multiLine("\nfirst\r\nsecond\r\rthird\tend\u{1B}[2K\n\n") == "first\nsecond\n\nthird end")
    }

    @Test(arguments: [
        ([0x66, 0xFF, 0x6F] as [UInt8], "f\u{FFFD}o"),
        ([0xE2, 0x82], "\u{FFFD}"),
        ([0xC3, 0x28], "\u{FFFD}("),
        ([0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"),
        (Array("ok é".utf8), "ok é"),
    ])
    func repairReplacesInvalidUTF8(_ bytes: [UInt8], _ expected: String) {
        #expect(TextSanitizer.repair(bytes: bytes) == expected)
    }
}
