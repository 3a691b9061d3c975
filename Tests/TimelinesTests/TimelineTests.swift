import Foundation
import Testing
import Text
import Timelines

@Suite("timeline model")
struct TimelineTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func entry(_ offset: TimeInterval, _ text: String) -> TimelineEntry {
        TimelineEntry(date: start.addingTimeInterval(offset), content: EntryContent(text: text))
    }

    @Test func currentEntryIsTheLatestNotAfterNow() {
        let timeline = Timeline(entries: [entry(60, "b"), entry(0, "a"), entry(120, "c")], policy: .atEnd)
        #expect(timeline.entries.map(\.content.text) == ["a", "b", "c"])
        #expect(timeline.entry(at: start.addingTimeInterval(-10))?.content.text == "a")
        #expect(timeline.entry(at: start)?.content.text == "a")
        #expect(timeline.entry(at: start.addingTimeInterval(59.9))?.content.text == "a")
        #expect(timeline.entry(at: start.addingTimeInterval(60))?.content.text == "b")
        #expect(timeline.entry(at: start.addingTimeInterval(1_000))?.content.text == "c")
    }

    @Test func entriesSharingADateKeepTheLastGiven() {
        let timeline = Timeline(entries: [entry(0, "first"), entry(0, "second"), entry(-5, "early")], policy: .never)
        #expect(timeline.entries.map(\.content.text) == ["early", "second"])
    }

    @Test func entriesAlreadyInOrderAreKeptAsGiven() {
        // In order, they skip the sort; two sharing a date at the end still keep the last given.
        #expect(Timeline(entries: [entry(0, "a")], policy: .never).entries.map(\.content.text) == ["a"])
        #expect(
            Timeline(entries: [entry(0, "a"), entry(60, "b"), entry(120, "c")], policy: .never).entries.map(
                \.content.text) == ["a", "b", "c"])
        #expect(
            Timeline(entries: [entry(0, "a"), entry(60, "b"), entry(60, "c")], policy: .never).entries.map(
                \.content.text) == ["a", "c"])
    }

    @Test func emptyTimelineHasNoEntry() {
        #expect(Timeline(entries: [], policy: .atEnd).entry(at: start) == nil)
    }

    /// A presentation is opaque to the engine, yet entries carrying it compare and hash by its value and type.
    @Test func presentationsCompareByValueAndType() {
        struct Layout: Hashable, Sendable { var width: Int }
        struct OtherLayout: Hashable, Sendable { var width: Int }
        #expect(EntryPresentation(Layout(width: 3)) == EntryPresentation(Layout(width: 3)))
        #expect(EntryPresentation(Layout(width: 3)).hashValue == EntryPresentation(Layout(width: 3)).hashValue)
        #expect(EntryPresentation(Layout(width: 3)) != EntryPresentation(Layout(width: 4)))
        #expect(EntryPresentation(Layout(width: 3)) != EntryPresentation(OtherLayout(width: 3)))
        #expect(EntryPresentation(Layout(width: 3)).value(as: Layout.self) == Layout(width: 3))
        #expect(EntryPresentation(Layout(width: 3)).value(as: OtherLayout.self) == nil)

        var content = EntryContent(text: "a")
        content.presentation = EntryPresentation(Layout(width: 3))
        var same = EntryContent(text: "a")
        same.presentation = EntryPresentation(Layout(width: 3))
        #expect(content == same)
        #expect(content.hashValue == same.hashValue)
        #expect(content != EntryContent(text: "a"))
        content.presentation = nil
        #expect(content == EntryContent(text: "a"))
    }

    @Test(arguments: [
        ("#fff", "#ffffff"), ("#D3D3D3", "#d3d3d3"), ("00ff0080", "#00ff0080"), ("#000000ff", "#000000"),
    ])
    func coloursParseAndPrint(_ input: String, _ hex: String) throws {
        #expect(try #require(Color(hex: input)).hex == hex)
    }

    @Test(arguments: ["", "#", "#12", "#12345", "#gggggg", "#1234567", "red", "#１２３"])
    func badColoursAreRefused(_ input: String) {
        #expect(Color(hex: input) == nil)
    }

    @Test func familiesGiveWidthBudgets() {
        let long = EntryContent(text: String(repeating: "word ", count: 40))
        for family in Family.allCases {
            let fitted = long.fitted(to: family)
            #expect(DisplayWidth.of(fitted.full) <= family.fullWidth)
            #expect(DisplayWidth.of(fitted.short) <= family.shortWidth)
            #expect(fitted.full.hasSuffix("…"))
        }
    }

    @Test func suggestionsFindNearMissesOnly() {
        #expect(Suggestion.closest(to: "intreval", in: ["interval", "kind"]) == "interval")
        #expect(Suggestion.closest(to: "Kind", in: ["kind"]) == "kind")
        #expect(Suggestion.closest(to: "foo", in: ["family", "kind"]) == nil)
        #expect(Suggestion.didYouMean("widgetz", in: ["widgets"]) == "; did you mean 'widgets'?")
    }
}
