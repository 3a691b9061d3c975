import Foundation
import Testing

@testable import Daemon
@testable import Runtime

/// Issue 10, item 8: text from outside is escaped and cut in the log (its rate limit: RuntimeTests' `LogRateLimiterTests`).
@Suite("log text")
struct LogTextTests {
    @Test(
        arguments: [
            ("plain text, é and 😀", "plain text, é and 😀"),
            ("\u{1b}[2Jcleared", "\\x1b[2Jcleared"),
            ("nul\0here", "nul\\x00here"),
            ("hidden\rstart", "hidden\\rstart"),
            ("two\nlines\tand tab", "two\\nlines\\tand tab"),
            ("del\u{7f} c1\u{85} \u{9b}", "del\\x7f c1\\x85 \\x9b"),
            ("evil\u{202e}txt.exe \u{2028}", "evil\\u{202e}txt.exe \\u{2028}"),
        ])
    func controlCharactersAreEscaped(text: String, escaped: String) {
        #expect(LogText.escaped(text) == escaped)
    }

    @Test func anExcerptIsCutAtEightyCharactersWithAnEllipsis() {
        #expect(LogText.excerpt(String(repeating: "a", count: 80)) == String(repeating: "a", count: 80))
        #expect(LogText.excerpt(String(repeating: "a", count: 81)) == String(repeating: "a", count: 80) + "…")
        // Escapes count as what they print, and are never cut in half.
        let escapes = LogText.excerpt(String(repeating: "\u{1b}", count: 50))
        #expect(escapes == String(repeating: "\\x1b", count: 20) + "…")
        // One grapheme of a letter and ten thousand combining marks is still cut.
        #expect(LogText.excerpt("a" + String(repeating: "\u{301}", count: 10_000)).unicodeScalars.count == 81)
    }

    @Test func everyLogLineIsEscaped() {
        let lines = Captured()
        let log = Log(level: .info) { lines.append($0) }
        log(.warning, "control FIFO: dropped '\u{1b}]0;pwned\u{7}\0\r'")
        #expect(lines.all == ["widgetd: warning: control FIFO: dropped '\\x1b]0;pwned\\x07\\x00\\r'"])
    }
}

/// Lines a test's log sink received.
final class Captured: @unchecked Sendable {
    private var lines: [String] = []
    private let lock = NSLock()
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
