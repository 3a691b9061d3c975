import Formats
import Foundation
import Testing
import TimeZones
import Timelines

/// An instance record whose timeline is computed: small on disk, exact when read back, and older records still load.
@Suite("instance record: computed timelines")
struct ComputedRecordTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let sequence = TimelineSequence(
        start: start, step: 1, count: 3600, format: "%H:%M:%S \"%Z\"",
        timeZone: try! Zone.load(identifier: "Asia/Kolkata"))

    static let record = InstanceRecord(
        instance: "clock", kind: "clock", family: .accessoryInline, entries: [], sequence: sequence,
        fallback: EntryContent(text: "--:--"))

    @Test func isWrittenAsTheRuleNotAsEntries() throws {
        let text = String(decoding: try Self.record.encoded(), as: UTF8.self)
        #expect(
            text
                == #"{"entries":[],"fallback":{"text":"--:--"},"family":"accessoryInline","instance":"clock","kind":"clock","sequence":{"count":3600,"format":"%H:%M:%S \"%Z\"","offset":19800,"start":1800000000,"step":1,"zone":"Asia/Kolkata"}}"#
                + "\n")
        #expect(try Self.record.encoded() == Self.record.encodedByJSONEncoder())
        let decoded = try JSONDecoder().decode(InstanceRecord.self, from: Data(text.utf8))
        #expect(decoded == Self.record)
        // 2027-01-15 08:00:00Z is 13:30 in Kolkata.
        #expect(decoded.content(at: Self.start.addingTimeInterval(0.9)).text == "13:30:00 \"IST\"")
        #expect(decoded.content(at: Self.start.addingTimeInterval(3599)).text == "14:29:59 \"IST\"")
        #expect(decoded.content(at: Self.start.addingTimeInterval(9999)).text == "14:29:59 \"IST\"")
        #expect(decoded.nextChange(after: Self.start.addingTimeInterval(3598.5)) == Self.start.addingTimeInterval(3599))
        #expect(decoded.nextChange(after: Self.start.addingTimeInterval(3599)) == nil)
    }

    @Test func theKeptRecordKeepsTheRuleAndItsCurrentText() {
        let kept = Self.record.kept(at: Self.start.addingTimeInterval(90))
        #expect(kept.sequence == Self.sequence)
        #expect(kept.keptContent(at: Self.start.addingTimeInterval(90)).text == "13:31:30 \"IST\"")
        var failing = Self.record
        failing.failure = "timed out"
        #expect(failing.content(at: Self.start).state == .stale)
    }

    /// `GMT+5` is two zones: ICU's custom name (east) in `timezone:`, a POSIX rule (west) in the daemon's `TZ`. Read
    /// back, each is the zone it was written with: `show` and `bar` of a `TZ=GMT+5` daemon's clock were ten hours off.
    @Test(arguments: [true, false])
    func aZoneNamedLikeBothIsReadAsTheOneWritten(posix: Bool) throws {
        let zone =
            posix
            ? Zone(identifier: "GMT+5", rule: try PosixTZRule(parsing: "GMT+5")) : try Zone.load(identifier: "GMT+5")
        let sequence = TimelineSequence(start: Self.start, step: 60, count: 60, format: "%H:%M %z", timeZone: zone)
        let record = InstanceRecord(
            instance: "clock", kind: "clock", family: .accessoryInline, entries: [], sequence: sequence,
            fallback: EntryContent(text: "--:--"))
        let decoded = try JSONDecoder().decode(InstanceRecord.self, from: Data(try record.encoded()))
        // 2027-01-15 08:00:00Z.
        #expect(decoded.content(at: Self.start).text == (posix ? "03:00 -0500" : "13:00 +0500"))
    }

    @Test func aRecordOfThePreviousVersionStillLoads() throws {
        // As the previous version wrote a per-minute clock: stored entries, no sequence.
        let json =
            #"{"entries":[{"date":1800000000,"text":"13:30"},{"date":1800000060,"text":"13:31"}],"fallback":{"text":"--:--"},"family":"accessoryInline","instance":"clock","kind":"clock"}"#
        let record = try JSONDecoder().decode(InstanceRecord.self, from: Data(json.utf8))
        #expect(record.sequence == nil)
        #expect(record.content(at: Self.start.addingTimeInterval(61)).text == "13:31")
        #expect(record.nextChange(after: Self.start) == Self.start.addingTimeInterval(60))
    }

    @Test(arguments: [
        #""count":3600,"format":"%T","start":1800000000,"step":1,"zone":"Mars/Olympus""#,
        #""count":0,"format":"%T","start":1800000000,"step":1,"zone":"UTC""#,
        #""count":10,"format":"%T","start":1800000000,"step":-1,"zone":"UTC""#,
    ])
    func aBadSequenceIsRefusedNotGuessed(fields: String) {
        let json =
            #"{"entries":[],"fallback":{"text":"--:--"},"family":"accessoryInline","instance":"c","kind":"clock","sequence":{"#
            + fields + "}}"
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(InstanceRecord.self, from: Data(json.utf8))
        }
    }

    @Test func aZoneTheReaderCannotNameIsReadAtItsOffset() throws {
        let json =
            #"{"entries":[],"fallback":{"text":"--:--"},"family":"accessoryInline","instance":"c","kind":"clock","sequence":{"count":60,"format":"%H:%M %z","offset":-34200,"start":1800000000,"step":60,"zone":"<-0930>9:30"}}"#
        let record = try JSONDecoder().decode(InstanceRecord.self, from: Data(json.utf8))
        #expect(record.content(at: Self.start.addingTimeInterval(60)).text == "22:31 -0930")
    }

    @Test func aSequenceBeforeItsStartShowsItsFirstEntry() {
        let timeline = Timeline(sequence: Self.sequence, policy: .atEnd)
        #expect(timeline.entry(at: Self.start.addingTimeInterval(-100))?.date == Self.start)
        #expect(timeline.nextEntryDate(after: Self.start.addingTimeInterval(-100)) == Self.start)
        #expect(timeline.lastEntryDate == Self.start.addingTimeInterval(3599))
    }
}
