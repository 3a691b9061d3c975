import Formats
import Foundation
import Testing
import TimeZones
import Timelines

@testable import Runtime

/// The status file the daemon writes for each widget and the CLI reads (`InstanceStatusRecord`).
@Suite("a widget's status file")
struct InstanceStatusRecordTests {
    /// The status file, written by hand, is what JSONEncoder writes with sorted keys (slashes aside), with or without
    /// its optional fields, whatever its text holds.
    @Test(arguments: [
        #"{"reloading":true}"#,
        #"{"policy":"after 2033-05-18T05:33:20+02:00","nextReload":"2033-05-18T05:33:20+02:00","reloading":false,"#
            + #""lastError":"q: \"quoted\" back\\slash\nnew line\ttab\u0001\u001f é ✓ /path/to"}"#,
        #"{"policy":"never","reloading":false,"lastError":""}"#,
        #"{"policy":"after","reloading":false,"reloadsWithPolicy":true}"#,
    ])
    func aStatusFileIsWhatJSONEncoderWrites(_ json: String) throws {
        let record = try JSONDecoder().decode(InstanceStatusRecord.self, from: Data(json.utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = String(decoding: try encoder.encode(record), as: UTF8.self)
        #expect(String(decoding: record.encoded(), as: UTF8.self) == expected)
        #expect(try JSONDecoder().decode(InstanceStatusRecord.self, from: Data(record.encoded())) == record)
    }

    private static let now = Date(timeIntervalSince1970: 2_000_000_000)

    /// What the daemon writes for a sampled widget: `after`, the date being in its record.
    private static func sampledStatus() throws -> InstanceStatusRecord {
        try JSONDecoder().decode(
            InstanceStatusRecord.self,
            from: Data(#"{"policy":"after","reloading":false,"reloadsWithPolicy":true}"#.utf8))
    }

    private static func record(reloadAfter: Date?) -> InstanceRecord {
        InstanceRecord(
            instance: "load", kind: "load", family: .accessoryInline, entries: [], fallback: EntryContent(text: ""),
            reloadAfter: reloadAfter)
    }

    private static func text(_ date: Date) -> String { ISO8601Text.format(date, in: Zone.current) }

    /// `list` puts back the date a sampled widget's status file leaves to its record, which every new sample rewrites.
    @Test func theNextReloadIsTheRecordsDateWhileItIsToCome() throws {
        let next = Self.now.addingTimeInterval(2)
        let resolved = try Self.sampledStatus().resolved(with: Self.record(reloadAfter: next), now: Self.now) { _ in
            Self.now.addingTimeInterval(1)
        }
        #expect(resolved.policy == "after " + Self.text(next))
        #expect(resolved.nextReload == Self.text(next))
        #expect(!resolved.reloadsWithPolicy)
    }

    /// A sample of the same value leaves the record as it was, its date passed: the next reload is then the kind's
    /// rule after now (the interval's next boundary), or, without a rule, the date the record has.
    @Test func aRecordsDateThatPassedGivesWayToTheKindsRule() throws {
        let passed = Self.now.addingTimeInterval(-3)
        let boundary = Self.now.addingTimeInterval(1)
        let status = try Self.sampledStatus()
        let resolved = status.resolved(with: Self.record(reloadAfter: passed), now: Self.now) {
            $0 == Self.now ? boundary : nil
        }
        #expect(resolved.nextReload == Self.text(boundary))
        #expect(resolved.policy == "after " + Self.text(boundary))
        #expect(status.resolved(with: Self.record(reloadAfter: passed), now: Self.now).nextReload == Self.text(passed))
    }

    @Test func aStatusThatNamesItsDateOrHasNoRecordDateIsLeftAsItIs() throws {
        let status = try Self.sampledStatus()
        #expect(status.resolved(with: nil, now: Self.now) == status)
        #expect(status.resolved(with: Self.record(reloadAfter: nil), now: Self.now) == status)
        let dated = try JSONDecoder().decode(
            InstanceStatusRecord.self, from: Data(#"{"policy":"never","reloading":false}"#.utf8))
        #expect(dated.resolved(with: Self.record(reloadAfter: Self.now), now: Self.now) == dated)
    }
}
