import Foundation
import Providers
import Scheduler
import Testing

@Suite("clock kind")
struct ClockKindTests {
    let kind = ClockKind()
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// 2026-11-29 19:30:27 in Berlin (18:30:27Z).
    let now = ISO8601Text.parse("2026-11-29T18:30:27+00:00", defaultTimeZone: TimeZone(identifier: "UTC")!)!

    func timeline(_ values: [String: ParameterValue]) async throws -> Timeline {
        var configuration = kind.defaultConfiguration
        for (key, value) in values { configuration[key] = value }
        let context = ProviderContext(instance: "c", family: .accessoryInline, now: now, timeZone: berlin)
        return try await kind.timeline(for: configuration, in: context)
    }

    @Test func oneEntryPerMinuteForTheComingHourThenAtEnd() async throws {
        let timeline = try await timeline([:])
        #expect(timeline.entries.count == 60)
        #expect(timeline.policy == .atEnd)
        #expect(timeline.entries.first?.content.text == "19:30")
        #expect(timeline.entries.first?.date == now.addingTimeInterval(-27))
        #expect(timeline.entries.last?.content.text == "20:29")
        let gaps = Set(zip(timeline.entries.dropFirst(), timeline.entries).map { $0.date.timeIntervalSince($1.date) })
        #expect(gaps == [60])
    }

    @Test func secondsGiveOneEntryPerSecond() async throws {
        let timeline = try await timeline(["seconds": .bool(true), "format": .string("%T")])
        #expect(timeline.entries.count == 3600)
        #expect(timeline.entries[0].content.text == "19:30:27")
        #expect(timeline.entries[33].content.text == "19:31:00")
        #expect(timeline.entries[3599].content.text == "20:30:26")
        // What the engine shows at a given second is that second's entry.
        #expect(timeline.entry(at: now.addingTimeInterval(100.5))?.content.text == "19:32:07")
    }

    @Test func aFormatWithoutSecondsKeepsOneEntryPerChange() async throws {
        let timeline = try await timeline(["seconds": .bool(true), "format": .string("%H:%M")])
        #expect(timeline.entries.count == 61)
        #expect(Set(timeline.entries.map(\.content.text)).count == 61)
    }

    @Test(arguments: [
        ("%a %d %b %Y", "Sun 29 Nov 2026"), ("%A %B %e", "Sunday November 29"), ("%I:%M %p", "07:30 PM"),
        ("%F %R", "2026-11-29 19:30"), ("%j %u %w", "333 7 0"), ("%z %Z", "+0100 CET"), ("100%%", "100%"),
        ("%q", "%q"),
    ])
    func strftimeConversions(_ format: String, _ expected: String) async throws {
        let timeline = try await timeline(["format": .string(format)])
        #expect(timeline.entries.first?.content.text == expected)
    }

    @Test func dstChangeInsideTheHourIsExact() async throws {
        // 2026-10-25 02:59:30 CEST (00:59:30Z): the clock goes back to 02:00 CET a minute later.
        let context = ProviderContext(
            instance: "c", family: .systemSmall,
            now: ISO8601Text.parse("2026-10-25T00:59:30+00:00", defaultTimeZone: berlin)!, timeZone: berlin)
        var configuration = kind.defaultConfiguration
        configuration["format"] = .string("%H:%M %Z")
        let timeline = try await kind.timeline(for: configuration, in: context)
        #expect(timeline.entries[0].content.text == "02:59 CEST")
        #expect(timeline.entries[1].content.text == "02:00 CET")
    }
}
