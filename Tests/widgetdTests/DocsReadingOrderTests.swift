import Foundation
import Testing

/// The docs read as a reference, in order: the README says where to start and links every page, every page sends a
/// newcomer to ARCHITECTURE.md first and says what to read next, and a measured figure has one place, PERFORMANCE.md.
@Suite("the docs' reading order and their one place for figures")
struct DocsReadingOrderTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOfFile: packageRoot.path + "/" + path, encoding: .utf8)
    }

    /// The pages under docs/, by file name.
    static func pages() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: packageRoot.path + "/docs").filter { $0.hasSuffix(".md") }
            .sorted()
    }

    /// The section of `markdown` that starts with the heading `heading`, up to the next heading of its level.
    static func section(_ heading: String, of markdown: String) throws -> String {
        let start = try #require(markdown.range(of: "\n" + heading + "\n"))
        let end = markdown[start.upperBound...].range(of: "\n## ")?.lowerBound ?? markdown.endIndex
        return String(markdown[start.upperBound..<end])
    }

    @Test func theReadmeLinksEveryPageArchitectureFirst() throws {
        let documentation = try Self.section("## Documentation", of: try Self.text("README.md"))
        let pages = try Self.pages()
        #expect(pages.count >= 10, "\(pages)")
        for page in pages { #expect(documentation.contains("(docs/\(page))"), "README's Documentation lacks \(page)") }
        let architecture = try #require(documentation.range(of: "(docs/ARCHITECTURE.md)"))
        for page in pages where page != "ARCHITECTURE.md" {
            let link = try #require(documentation.range(of: "(docs/\(page))"))
            #expect(architecture.lowerBound < link.lowerBound, "README's Documentation links \(page) first")
        }
    }

    @Test func everyPageSaysWhereToStartAndWhatToReadNext() throws {
        for page in try Self.pages() {
            let text = try Self.text("docs/" + page)
            if page != "ARCHITECTURE.md" {
                let opening = text.prefix(1200)
                #expect(opening.contains("(ARCHITECTURE.md)"), "\(page) does not send a newcomer to ARCHITECTURE.md")
            }
            #expect(
                text.contains("\n## Where to read next\n") || text.contains("\nNext: ["),
                "\(page) does not say what to read next")
        }
    }

    /// The README's opening names every kind `widgetd kinds` lists, and kinds.md has a section for each.
    @Test func everyKindIsNamedWhereANewcomerLooks() throws {
        let kinds = try GeneratedDocsTests.kindsAndFamilies().kinds
        #expect(kinds.count >= 10, "\(kinds)")
        let readme = try Self.text("README.md")
        let opening = readme[..<(readme.range(of: "\n## ")?.lowerBound ?? readme.endIndex)]
        let reference = try Self.text("docs/kinds.md")
        for kind in kinds {
            #expect(opening.contains("`\(kind)`"), "the README's opening does not name \(kind)")
            #expect(
                reference.contains("\n## \(kind)\n") || reference.contains("\n### \(kind)\n"),
                "docs/kinds.md has no section for \(kind)")
        }
    }

    /// A measured figure (ms, µs, MB, kB) is stated once, in PERFORMANCE.md's table: the README and ARCHITECTURE.md
    /// point there instead of copying one that goes stale. No page counts the tests, which change with every commit.
    @Test func figuresLiveInPerformanceOnly() throws {
        let figure = #/[0-9][0-9.,]* ?(ms|µs|MB|kB)\b/#
        for path in ["README.md", "docs/ARCHITECTURE.md"] {
            let matches = try Self.text(path).matches(of: figure).map { String($0.output.0) }
            #expect(matches.isEmpty, "\(path) quotes \(matches); PERFORMANCE.md's table is their place")
        }
        let count = #/[0-9][0-9,]* (tests|suites)\b/#
        for path in ["README.md"] + (try Self.pages()).map({ "docs/" + $0 }) {
            let matches = try Self.text(path).matches(of: count).map { String($0.output.0) }
            #expect(matches.isEmpty, "\(path) counts the tests: \(matches)")
        }
    }
}
