import Diagnostics
import Foundation
import Testing
import YAML

/// Issue 10, item 9: CRLF files get their excerpt, and errors inside multi-line values point into the value.
@Suite("Diagnostic placement")
struct DiagnosticPlacementTests {
    @Test func crlfConfigQuotesTheLineWithACaret() {
        let result = loadConfig("widgets:\r\n  w:\r\n    kind: sampel\r\n")
        #expect(
            result.renderedDiagnostics() == """
                widgets.yaml:3:11: error: unknown kind 'sampel'; did you mean 'sample'? known kinds: sample, exec
                    kind: sampel
                          ^
                """)
    }

    /// libyaml also ends a line at a lone CR; the quoted line must be the one its mark counts.
    @Test func loneCarriageReturnsCountAsLineBreaks() {
        let result = loadConfig("widgets:\r  w:\r    kind: sampel\r")
        #expect(result.renderedDiagnostics().hasSuffix("\n    kind: sampel\n          ^"))
    }

    struct Placement: CustomTestStringConvertible, Sendable {
        var name: String
        var schedule: String
        var line: Int
        var column: Int
        var testDescription: String { name }
    }

    /// The widget starts at line 2; `schedule:` is line 4, so block content is on line 5.
    static let placements: [Placement] = [
        Placement(name: "plain", schedule: "0 61 * * *", line: 4, column: 17),
        Placement(name: "double-quoted", schedule: "\"0 61 * * *\"", line: 4, column: 18),
        Placement(name: "literal block", schedule: "|\n      0 61 * * *", line: 5, column: 9),
        Placement(name: "literal block with a comment", schedule: "| # hourly\n      0 61 * * *", line: 5, column: 9),
        Placement(name: "folded block", schedule: ">-\n      0\n      61 * * *", line: 6, column: 7),
        Placement(name: "multi-line plain", schedule: "0\n      61 * * *", line: 5, column: 7),
        Placement(name: "multi-line double-quoted", schedule: "\"0 0\n       * 13 *\"", line: 5, column: 10),
        Placement(name: "multi-line single-quoted", schedule: "'0\n      0 * 13 *'", line: 5, column: 11),
        Placement(name: "block, missing field at the end", schedule: "|\n      0 0 * *", line: 5, column: 14),
        // Escapes are one character of the value each, blank or not as the character they stand for.
        Placement(name: "a field missing after an escape", schedule: #""0 0 * \x2a""#, line: 4, column: 26),
        Placement(name: "a hex escape", schedule: #""\x2a/5 * * * 8""#, line: 4, column: 29),
        Placement(name: "an escaped tab", schedule: #""*/5\t* * * 8""#, line: 4, column: 27),
        Placement(name: "unicode escapes", schedule: #""\u0030 61 * * *""#, line: 4, column: 23),
        Placement(name: "a line joined by a backslash", schedule: #""0 6\\#n      1 * * *""#, line: 4, column: 18),
    ]

    @Test(arguments: placements)
    func cronErrorPointsIntoTheValue(_ placement: Placement) throws {
        let yaml = "widgets:\n  w:\n    kind: sample\n    schedule: \(placement.schedule)\n"
        let result = loadConfig(yaml)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1)
        #expect(diagnostic.message.contains("bad cron expression"), "\(diagnostic.message)")
        #expect(diagnostic.mark == YAMLMark(line: placement.line, column: placement.column), "\(diagnostic.headline)")
        // The caret never points past the end of its line.
        let line = try #require(SourceLines(yaml).line(placement.line))
        #expect(placement.column <= line.unicodeScalars.count + 1)
    }
}
