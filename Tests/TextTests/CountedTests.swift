import Testing
import Text

/// `counted`: the messages' counts agree with their nouns ("started: 1 widget", "2 errors in …").
@Suite("counted nouns")
struct CountedTests {
    @Test(
        arguments: [
            (0, "widget", nil, "0 widgets"), (1, "widget", nil, "1 widget"), (2, "error", nil, "2 errors"),
            (1, "entry", "entries", "1 entry"), (3, "entry", "entries", "3 entries"),
        ] as [(Int, String, String?, String)])
    func aCountTakesTheSingularOnlyForOne(count: Int, noun: String, plural: String?, expected: String) {
        #expect(counted(count, noun, plural: plural) == expected)
    }
}
