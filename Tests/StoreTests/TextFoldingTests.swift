import Foundation
import Testing

@testable import Store

/// TextFolding's own tables (issue 15: no ICU in the daemon) against what Foundation's `String.folding` gave before.
@Suite("text folding without Foundation")
struct TextFoldingTests {
    @Test(arguments: [
        ("CAFÉ", "cafe"), ("café", "cafe"), ("Ångström", "angstrom"), ("\u{212B}ngstr\u{F6}m", "angstrom"),
        ("Cafe\u{301}", "cafe"), ("NAÏVE Façade", "naive facade"), ("Straße", "strasse"), ("ΆΈΉ", "αεη"),
        ("Ёлка", "елка"), ("Don’t", "don't"), ("頑張って", "頑張って"), ("한국어", "한국어"), ("", ""),
    ])
    func searchKeysIgnoreCaseAndAccents(_ text: String, _ key: String) {
        #expect(TextFolding.searchKey(text) == key)
    }

    @Test(arguments: [("CAFÉ", "café"), ("Straße", "strasse"), ("ǅ", "ǆ"), ("ΣΊΣΥΦΟΣ", "σίσυφοσ"), ("abc", "abc")])
    func caseKeysIgnoreCaseButKeepAccents(_ text: String, _ key: String) {
        #expect(TextFolding.caseKey(text) == key)
    }

    /// Every letter of the Latin, Greek and Cyrillic blocks folds as Foundation folded it: the scripts the samples
    /// and most users' notes are written in.
    @Test func latinGreekAndCyrillicFoldAsFoundationFolded() {
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xC0...0x24F, 0x370...0x3FF, 0x400...0x4FF, 0x1E00...0x1EFF]
        var differences: [String] = []
        for value in ranges.joined() {
            guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned else { continue }
            let text = String(Character(scalar))
            let foundation = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            let foundationCase = text.folding(options: [.caseInsensitive], locale: nil)
            if TextFolding.searchKey(text) != foundation.precomposedStringWithCanonicalMapping {
                differences.append(
                    "search U+\(String(value, radix: 16)): \(TextFolding.searchKey(text)) ≠ \(foundation)")
            }
            if TextFolding.caseKey(text) != foundationCase {
                differences.append(
                    "case U+\(String(value, radix: 16)): \(TextFolding.caseKey(text)) ≠ \(foundationCase)")
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differ: \(differences.prefix(40))")
    }

    @Test func aSearchInSQLFindsAccentedAndUpperCaseText() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        for message in ["Ångström units", "café au lait", "NAÏVE", "plain"] {
            try fixture.motivations.add(message: message)
        }
        #expect(try fixture.motivations.matching("angstrom").map(\.message) == ["Ångström units"])
        #expect(try fixture.motivations.matching("CAFÉ").map(\.message) == ["café au lait"])
        #expect(try fixture.motivations.matching("naïve").map(\.message) == ["NAÏVE"])
    }
}
