import Testing
import Text

/// "Did you mean": distances count characters, whichever way the words are compared inside.
@Suite("suggestions for a mistyped word")
struct SuggestionTests {
    /// Neighbours swapped are one edit, also where a character is two scalars (`e` and a combining acute accent)
    /// that equals the candidate's one (`é`): by scalars they would be two edits apart, too far for a 4-letter word.
    @Test func aCharacterOfTwoScalarsIsOneCharacter() {
        #expect(Suggestion.closest(to: "cfae\u{301}", in: ["café"]) == "café")
        #expect(Suggestion.closest(to: "Zürihc", in: ["Zürich", "Zug"]) == "Zürich")
    }

    /// `"\r\n"` is one character: one edit from `ab`, where by bytes it would be two.
    @Test func aCarriageReturnAndLineFeedAreOneCharacter() {
        #expect(Suggestion.closest(to: "a\r\nb", in: ["ab"]) == "ab")
        #expect(Suggestion.closest(to: "a\rb", in: ["ab"]) == "ab")
    }

    @Test func asciiWordsAreComparedAsBefore() {
        #expect(Suggestion.closest(to: "intreval", in: ["interval", "kind"]) == "interval")
        #expect(Suggestion.closest(to: "sampel", in: ["sample", "quotes", "clock"]) == "sample")
        #expect(Suggestion.closest(to: "colck", in: ["clock"]) == "clock")
        #expect(Suggestion.closest(to: "foo", in: ["family", "kind"]) == nil)
    }
}
