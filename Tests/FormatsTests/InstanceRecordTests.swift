import Formats
import Foundation
import Output
import TestSupport
import Testing
import Timelines

@Suite("instance record")
struct InstanceRecordTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000.123_456_7)

    /// Entries with everything a record can hold, and text that needs escaping.
    static let entries = [
        TimelineEntry(
            date: start,
            content: EntryContent(
                text: "Due {date}", shortText: "Due", tooltip: "Report\n<draft> \"a/b\" \\ \u{1}",
                foreground: Color(hex: "#ff000080"), background: Color(hex: "#222"), state: .urgent,
                classes: ["work", "é"], dynamicDate: DynamicDate(start.addingTimeInterval(300), style: .relative),
                percentage: 42)),
        TimelineEntry(
            date: start.addingTimeInterval(60), content: EntryContent(text: "plain ⭐ 日本", dimmedRanges: [6..<7])),
        TimelineEntry(date: start.addingTimeInterval(120.5), content: EntryContent(text: "last", state: .stale)),
    ]

    static func record(failure: String? = nil) -> InstanceRecord {
        InstanceRecord(
            instance: "report", kind: "countdown", family: .systemMedium, entries: entries,
            fallback: EntryContent(text: "Loading…", tooltip: "placeholder"), failure: failure)
    }

    @Test(arguments: [nil, "exit status 3\nno network"])
    func theHandWrittenBytesAreJSONEncoders(failure: String?) throws {
        let record = Self.record(failure: failure)
        #expect(try record.encoded() == record.encodedByJSONEncoder())
        let empty = InstanceRecord(
            instance: "a", kind: "quotes", family: .accessoryInline, entries: [], fallback: EntryContent(text: ""))
        #expect(try empty.encoded() == empty.encodedByJSONEncoder())
    }

    @Test func roundTripsThroughItsFileExactly() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try OutputWriter(directory: directory.path)
        let record = Self.record(failure: "timed out")
        try writer.writeRecord(record)

        let data = try Data(contentsOf: URL(fileURLWithPath: directory.appending("report.json")))
        #expect(try JSONDecoder().decode(InstanceRecord.self, from: data) == record)
        #expect(data.last == UInt8(ascii: "\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let first = try #require((object["entries"] as? [[String: Any]])?.first)
        // JSONSerialization reads numbers with less precision than JSONDecoder; the exact round trip is checked above.
        #expect(abs(((first["date"] as? NSNumber)?.doubleValue ?? 0) - Self.start.timeIntervalSince1970) < 1e-5)
        #expect(first["foreground"] as? String == "#ff000080")
        #expect(object["failure"] as? String == "timed out")
    }

    @Test func givesTheEntryForAnyInstantByTheEnginesRule() {
        let record = Self.record()
        // Before the first entry: the first entry, its dynamic date read at that instant.
        #expect(record.content(at: Self.start.addingTimeInterval(-10)).text == "Due in 5 min")
        #expect(record.content(at: Self.start.addingTimeInterval(59)).text == "Due in 4 min")
        #expect(record.content(at: Self.start.addingTimeInterval(60)).text == "plain ⭐ 日本")
        #expect(record.content(at: Self.start.addingTimeInterval(3600)).text == "last")
        // The kept content is the entry as given, for a restarted daemon to resolve itself.
        #expect(record.keptContent(at: Self.start.addingTimeInterval(1)).text == "Due {date}")

        // Next change: the dynamic date's next minute boundary comes before the next entry, then the entries.
        #expect(record.nextChange(after: Self.start) == Self.start.addingTimeInterval(60))
        #expect(record.nextChange(after: Self.start.addingTimeInterval(60)) == Self.start.addingTimeInterval(120.5))
        #expect(record.nextChange(after: Self.start.addingTimeInterval(121)) == nil)

        let failing = Self.record(failure: "exit status 3")
        let stale = failing.content(at: Self.start.addingTimeInterval(60))
        #expect(stale.state == .stale)
        #expect(stale.tooltip == "exit status 3")

        let empty = InstanceRecord(
            instance: "a", kind: "quotes", family: .systemSmall, entries: [], fallback: EntryContent(text: "Small"))
        #expect(empty.content(at: Self.start).text == "Small")
        #expect(empty.nextChange(after: Self.start) == nil)
    }

    @Test func theKeptRecordHoldsOnlyTheCurrentEntry() {
        let record = Self.record(failure: "timed out")
        let kept = record.kept(at: Self.start.addingTimeInterval(90))
        #expect(kept.entries == [Self.entries[1]])
        #expect(kept.fallback == record.fallback)
        #expect(kept.failure == "timed out")
        #expect(
            kept.content(at: Self.start.addingTimeInterval(90)) == record.content(at: Self.start.addingTimeInterval(90))
        )
        // Before the timeline starts, its first entry is the current one.
        #expect(record.kept(at: Self.start.addingTimeInterval(-5)).entries == [Self.entries[0]])
        let empty = InstanceRecord(
            instance: "a", kind: "quotes", family: .systemSmall, entries: [], fallback: EntryContent(text: "Small"))
        #expect(empty.kept(at: Self.start).entries.isEmpty)
    }

    @Test func defaultsAreLeftOutOfEachEntry() throws {
        let record = InstanceRecord(
            instance: "c", kind: "clock", family: .accessoryInline,
            entries: [TimelineEntry(date: Date(timeIntervalSince1970: 60), content: EntryContent(text: "00:01"))],
            fallback: EntryContent(text: "--:--"))
        let text = String(decoding: try record.encoded(), as: UTF8.self)
        #expect(
            text
                == #"{"entries":[{"date":60,"text":"00:01"}],"fallback":{"text":"--:--"},"family":"accessoryInline","instance":"c","kind":"clock"}"#
                + "\n")
        #expect(try JSONDecoder().decode(InstanceRecord.self, from: Data(text.utf8)) == record)
    }

    @Test func rendersEveryFormatAsTheRendererDoesForTheCurrentEntry() {
        let record = Self.record()
        let now = Self.start.addingTimeInterval(30)
        for format in OutputFormat.allCases {
            #expect(
                record.rendered(as: format, at: now)
                    == Renderer.render(
                        Self.entries[0].content.resolved(at: now), family: .systemMedium, format: format,
                        instance: "report"))
        }
        #expect(record.rendered(as: .plain, at: now) == "Due in 4 min\n")
    }

    @Test func aTimelineEntryWithoutADateIsRefused() {
        let json =
            #"{"entries":[{"classes":[],"state":"normal","text":"x"}],"fallback":{"classes":[],"state":"normal","text":"y"},"family":"systemSmall","instance":"a","kind":"quotes"}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(InstanceRecord.self, from: Data(json.utf8))
        }
    }
}
