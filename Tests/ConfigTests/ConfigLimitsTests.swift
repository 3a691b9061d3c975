import Config
import Diagnostics
import Foundation
import TestSupport
import Testing
import Text
import TimeZones
import YAML

/// Issue 10, item 2: a huge or hostile widgets.yaml costs bounded output and time linear in its size.
@Suite("widgets.yaml limits")
struct ConfigLimitsTests {
    /// 8,000 duplicate entries on one 56 KB line printed 673 MB: every error quoted the whole line.
    @Test func eightThousandDuplicatesOnOneLineGiveAHundredErrorsAndACount() throws {
        let entries = (0..<8_000).map { _ in "w: {kind: sample}" }.joined(separator: ", ")
        let result = loadConfig("widgets: {\(entries)}\n")
        #expect(result.configuration == nil)
        // Every one counted, the hundred shown made.
        #expect(result.errorCount == 7_999)
        #expect(!result.stoppedEarly)
        #expect(result.diagnostics.count == ConfigLimits.maxShownErrors)
        let rendered = result.renderedDiagnostics()
        let lines = rendered.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 * ConfigLimits.maxShownErrors + 1)
        #expect(lines.filter { $0.contains(": error: duplicate key 'w'") }.count == ConfigLimits.maxShownErrors)
        #expect(lines.last == "and 7899 more errors")
        // Each excerpt is a window of the line, not the line.
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 160 }, "\(lines.map { DisplayWidth.of($0) }.max() ?? 0)")
    }

    @Test func fileOverTheSizeLimitIsRefusedNamingItsSizeAndTheLimit() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("widgets.yaml")
        let size = ConfigLimits.maxFileBytes + 1
        try Data(repeating: UInt8(ascii: "#"), count: size).write(to: URL(fileURLWithPath: path))
        let result = ConfigLoader.load(path: path, registry: .sample)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1)
        #expect(diagnostic.mark == nil)
        #expect(diagnostic.message == "the file is 1048577 bytes, over the limit of 1.0 MiB (1048576 bytes)")
        // The same from bytes, as a hot reload or a test hands them over.
        let fromBytes = ConfigLoader.load(bytes: Array(repeating: 0x23, count: size), file: "w.yaml", registry: .sample)
        #expect(fromBytes.diagnostics.map(\.message) == [diagnostic.message])
    }

    @Test func fileAtTheSizeLimitIsRead() throws {
        var yaml = "widgets:\n  w:\n    kind: sample\n"
        yaml += String(repeating: "#", count: ConfigLimits.maxFileBytes - yaml.utf8.count)
        #expect(loadConfig(yaml).configuration?.widgets.count == 1)
    }

    @Test func scalarOverTheLimitIsAnErrorAtItsStart() throws {
        let long = String(repeating: "x", count: ConfigLimits.maxScalarBytes + 1)
        let result = loadConfig("widgets:\n  w:\n    kind: \(long)\n")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1)
        #expect(diagnostic.mark == YAMLMark(line: 3, column: 11))
        #expect(diagnostic.message == "a scalar of 65537 bytes is longer than the limit of 65536 bytes")
    }

    /// 52 KB values under the limit: messages quote a piece of them, and the suggestion search does not stall.
    @Test func longUnknownValuesAreQuotedShortened() throws {
        let long = String(repeating: "Europe/Berlin", count: 4_000)
        let result = loadConfig("widgets:\n  w:\n    kind: \(long)\n    timezone: \(long)\n")
        #expect(result.diagnostics.count == 2)
        for diagnostic in result.diagnostics {
            #expect(diagnostic.message.count <= Diagnostic.maxMessageLength + 1, "\(diagnostic.message.count)")
        }
        #expect(result.diagnostics.map(\.message.first) == ["u", "u"])
    }

    @Test func noSuggestionForAHugeWord() {
        let word = String(repeating: "a", count: 60_000)
        #expect(Suggestion.closest(to: word, in: Zone.knownIdentifiers()) == nil)
        #expect(Suggestion.closest(to: "Europe/Berln", in: Zone.knownIdentifiers()) == "Europe/Berlin")
    }

    /// A config just under the size limit with an error on every line reports the first 100 and stops counting at
    /// the limit: the rest of the file is not looked at.
    @Test func aMegabyteOfMistakesIsCheckedUpToTheCountLimit() throws {
        var yaml = "widgets:\n"
        var index = 0
        while yaml.utf8.count < ConfigLimits.maxFileBytes - 100 {
            yaml += "  w\(index): {kind: sampel, intreval: 5}\n"
            index += 1
        }
        #expect(2 * index > ConfigLimits.maxCountedErrors)
        let result = loadConfig(yaml)
        #expect(result.errorCount == ConfigLimits.maxCountedErrors)
        #expect(result.stoppedEarly)
        #expect(result.diagnostics.map(\.mark?.line) == (2..<52).flatMap { [$0, $0] })
        #expect(result.renderedDiagnostics().hasSuffix("and at least 9900 more errors (checking stops after 10000)"))
        #expect(result.errorSummary == "at least 10000 errors")
    }

    /// Issue 38, item 6: one anchored list of bad items aliased into six widgets held six times its errors, and every
    /// one was made (840,000 from 980 kB: `check` took 2.4 s and 480 MB). Checking stops at the count limit, and the
    /// errors shown are the first in the file.
    @Test func mistakesMultipliedByAliasesStopAtTheCountLimit() throws {
        var yaml = "x-formats: &formats\n"
        for _ in 0..<3_000 { yaml += "- qqqq\n" }
        yaml += "widgets:\n"
        for index in 0..<6 { yaml += "  w\(index): {kind: sample, output: *formats}\n" }
        let result = loadConfig(yaml)
        #expect(result.configuration == nil)
        #expect(result.stoppedEarly)
        #expect(result.errorCount == ConfigLimits.maxCountedErrors)
        #expect(result.diagnostics.count == ConfigLimits.maxShownErrors)
        // 3,000 from each of the first three widgets and 1,000 from the fourth, then checking stopped; the first
        // hundred of those are the first 25 items, each once for each of the four widgets.
        #expect(result.diagnostics.map(\.mark?.line) == (2..<27).flatMap { Array(repeating: $0, count: 4) })
        #expect(result.diagnostics.allSatisfy { $0.message.hasPrefix("unknown output format 'qqqq'") })
        #expect(result.renderedDiagnostics().hasSuffix("and at least 9900 more errors (checking stops after 10000)"))
    }

    /// Duplicate keys are found while the file is read, which goes on to its end: all are counted, the first made.
    @Test func duplicateKeysAreAllCountedAndTheFirstShown() throws {
        let entries = (0..<20_000).map { _ in "w: {kind: sample}" }.joined(separator: ", ")
        let result = loadConfig("widgets: {\(entries)}\n")
        #expect(result.errorCount == 19_999)
        #expect(!result.stoppedEarly)
        #expect(result.diagnostics.count == ConfigLimits.maxShownErrors)
        #expect(result.diagnostics.first?.mark?.column == 30)
        #expect(result.renderedDiagnostics().hasSuffix("\nand 19899 more errors"))
    }
}

@Suite("Source excerpts")
struct SourceExcerptTests {
    @Test func shortLineIsShownWhole() {
        let excerpt = SourceExcerpt(line: "    kind: sampel", column: 11)
        #expect(excerpt.text == "    kind: sampel")
        #expect(excerpt.caret == "          ^")
    }

    @Test func longLineIsAWindowAroundTheColumn() {
        let line = String(repeating: "a", count: 1_000) + "X" + String(repeating: "b", count: 1_000)
        let excerpt = SourceExcerpt(line: Substring(line), column: 1_001)
        #expect(excerpt.text == "…" + String(repeating: "a", count: 40) + "X" + String(repeating: "b", count: 59) + "…")
        #expect(excerpt.caret == String(repeating: " ", count: 41) + "^")
    }

    @Test func windowNearTheStartIsCutOnlyAtTheEnd() {
        let line = "key: " + String(repeating: "v", count: 500)
        let excerpt = SourceExcerpt(line: Substring(line), column: 6)
        #expect(excerpt.text == String(line.prefix(100)) + "…")
        #expect(excerpt.caret == "     ^")
    }

    @Test func windowNearTheEndUsesTheWholeWidth() {
        let line = String(repeating: "a", count: 500) + "Z"
        let excerpt = SourceExcerpt(line: Substring(line), column: 501)
        #expect(excerpt.text == "…" + String(repeating: "a", count: 99) + "Z")
        #expect(excerpt.caret == String(repeating: " ", count: 100) + "^")
    }

    /// Wide characters take two columns of the budget and two spaces under them.
    @Test func wideCharactersCountTwice() {
        let line = String(repeating: "字", count: 300) + "X"
        let excerpt = SourceExcerpt(line: Substring(line), column: 301)
        #expect(excerpt.text == "…" + String(repeating: "字", count: 49) + "X")
        #expect(excerpt.caret == " " + String(repeating: " ", count: 98) + "^")
    }

    /// Emoji sequences and flags are whole characters: a window never starts inside one, and each takes the two
    /// columns a terminal gives it (a flag was four, one per regional indicator, and the caret went past the value).
    @Test func clustersAreNeitherSplitNorCountedByScalar() {
        let family = "👩\u{200D}👩\u{200D}👧"
        let line = String(repeating: family, count: 80) + " X"
        // The X is after 80 × 5 scalars and a space; 80 families are 160 columns, so the window is cut on the left.
        let excerpt = SourceExcerpt(line: Substring(line), column: 80 * 5 + 2)
        #expect(excerpt.text.hasPrefix("…" + family))
        #expect(excerpt.text.hasSuffix(" X"))
        #expect(DisplayWidth.of(excerpt.caret) == DisplayWidth.of(excerpt.text))
        let flags = SourceExcerpt(line: "a: 🇩🇪🇩🇪🇩🇪, b: middle", column: 15)
        #expect(flags.caret == "a: ".map { _ in " " }.joined() + String(repeating: " ", count: 6) + "     ^")
        // A column inside a character puts the caret under its start.
        #expect(SourceExcerpt(line: "ab🇩🇪c", column: 4).caret == "  ^")
    }

    /// A megabyte line is looked at around its column only: each of many diagnostics on it stays cheap.
    @Test func aHugeLineCostsItsWindow() {
        let line = Substring(String(repeating: "x", count: 1 << 20) + "Y")
        let excerpt = SourceExcerpt(line: line, column: (1 << 20) + 1)
        #expect(excerpt.text == "…" + String(repeating: "x", count: 99) + "Y")
        #expect(SourceExcerpt(line: line, column: 500_000).text.hasSuffix("…"))
    }

    /// libyaml's columns on the first line do not count a byte order mark; the quoted line leaves it out.
    @Test func aByteOrderMarkIsNotAColumn() {
        let lines = SourceLines("\u{FEFF}widgets: {a: {kind: sampel}}\n")
        #expect(lines.line(1) == "widgets: {a: {kind: sampel}}")
    }

    /// A right-to-left override in the quoted line would reorder what the terminal shows after it.
    @Test func bidirectionalOverridesAreNotSentToTheTerminal() {
        #expect(SourceExcerpt(line: "kind: a\u{202E}b", column: 7).text == "kind: a\u{FFFD}b")
    }

    @Test func controlCharactersAreNotSentToTheTerminal() {
        let excerpt = SourceExcerpt(line: "a\u{1B}[31mb\tc", column: 9)
        #expect(excerpt.text == "a\u{FFFD}[31mb\tc")
        #expect(excerpt.caret == "       \t^")
    }
}
