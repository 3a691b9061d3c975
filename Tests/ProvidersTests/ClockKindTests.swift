import Foundation
import Kind
import Providers
import Testing
import Timelines

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
        let sequence = try #require(timeline.sequence)
        #expect(timeline.entries.isEmpty)
        #expect(sequence.count == 60 && sequence.step == 60)
        #expect(timeline.policy == .atEnd)
        #expect(sequence.start == now.addingTimeInterval(-27))
        #expect(timeline.entry(at: now)?.content.text == "19:30")
        #expect(timeline.lastEntryDate == now.addingTimeInterval(-27 + 59 * 60))
        #expect(timeline.entry(at: now.addingTimeInterval(7200))?.content.text == "20:29")
        #expect(timeline.nextEntryDate(after: now) == now.addingTimeInterval(33))
    }

    @Test func secondsGiveOneEntryPerSecond() async throws {
        let timeline = try await timeline(["seconds": .bool(true), "format": .string("%T")])
        let sequence = try #require(timeline.sequence)
        #expect(sequence.count == 3600 && sequence.step == 1)
        #expect(timeline.entry(at: now)?.content.text == "19:30:27")
        #expect(timeline.entry(at: now.addingTimeInterval(33))?.content.text == "19:31:00")
        #expect(timeline.entry(at: sequence.lastDate)?.content.text == "20:30:26")
        // What the engine shows at a given second is that second's entry.
        #expect(timeline.entry(at: now.addingTimeInterval(100.5))?.content.text == "19:32:07")
        #expect(timeline.nextEntryDate(after: now.addingTimeInterval(100.5)) == now.addingTimeInterval(101))
        #expect(timeline.nextEntryDate(after: sequence.lastDate) == nil)
    }

    @Test func aFormatWithoutSecondsChangesOncePerMinute() async throws {
        let timeline = try await timeline(["seconds": .bool(true), "format": .string("%H:%M")])
        let texts = (0..<3600).compactMap { timeline.entry(at: now.addingTimeInterval(Double($0)))?.content.text }
        #expect(Set(texts).count == 61)
        // So the daemon wakes once a minute for it, not every second.
        #expect(timeline.sequence?.step == 60)
        #expect(timeline.nextEntryDate(after: now) == now.addingTimeInterval(33))
        for (format, step) in [("%M %% %T", 1), ("%S", 1), ("100%%S", 60), ("%s", 60)] {
            let other = try await self.timeline(["seconds": .bool(true), "format": .string(format)])
            #expect(other.sequence?.step == step, "\(format)")
        }
    }

    @Test(arguments: [
        ("%a %d %b %Y", "Sun 29 Nov 2026"), ("%A %B %e", "Sunday November 29"), ("%I:%M %p", "07:30 PM"),
        ("%F %R", "2026-11-29 19:30"), ("%j %u %w", "333 7 0"), ("%z %Z", "+0100 CET"), ("100%%", "100%"),
        ("%q", "%q"),
    ])
    func strftimeConversions(_ format: String, _ expected: String) async throws {
        let timeline = try await timeline(["format": .string(format)])
        #expect(timeline.entry(at: now)?.content.text == expected)
    }

    @Test func dstChangeInsideTheHourIsExact() async throws {
        // 2026-10-25 02:59:30 CEST (00:59:30Z): the clock goes back to 02:00 CET a minute later.
        let context = ProviderContext(
            instance: "c", family: .systemSmall,
            now: ISO8601Text.parse("2026-10-25T00:59:30+00:00", defaultTimeZone: berlin)!, timeZone: berlin)
        var configuration = kind.defaultConfiguration
        configuration["format"] = .string("%H:%M %Z")
        let timeline = try await kind.timeline(for: configuration, in: context)
        #expect(timeline.entry(at: context.now)?.content.text == "02:59 CEST")
        #expect(timeline.entry(at: context.now.addingTimeInterval(30))?.content.text == "02:00 CET")
    }
}
