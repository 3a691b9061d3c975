import Foundation
import Kind
import Providers
import Testing
import TimeZones
import Timelines

@Suite("clock kind")
struct ClockKindTests {
    let kind = ClockKind()
    let berlin = try! Zone.load(identifier: "Europe/Berlin")
    /// 2026-11-29 19:30:27 in Berlin (18:30:27Z).
    let now = ISO8601Text.parse("2026-11-29T18:30:27+00:00", defaultTimeZone: .utc)!

    func timeline(_ values: [String: ParameterValue]) async throws -> Timeline {
        var configuration = kind.defaultConfiguration
        for (key, value) in values { configuration[key] = value }
        let context = ProviderContext(instance: "c", family: .accessoryInline, now: now, timeZone: berlin)
        return try await kind.timeline(for: configuration, in: context)
    }

    /// The daemon calls `immediateTimeline` on its loop's thread; it must be the provider's own answer.
    @Test func answersAtOnceWithTheSameTimeline() async throws {
        var configuration = kind.defaultConfiguration
        configuration["seconds"] = .bool(true)
        let context = ProviderContext(instance: "c", family: .accessoryInline, now: now, timeZone: berlin)
        let immediate = try #require(try kind.immediateTimeline(for: configuration, in: context))
        #expect(immediate == (try await kind.timeline(for: configuration, in: context)))
        #expect(immediate.entry(at: now)?.content.text == "19:30")
    }

    /// `%S` or `%T` on a clock stepping by minutes shows `:00` all minute: `check` warns at the format.
    @Test func secondsInTheFormatWithoutSecondsTrueIsAWarning() {
        #expect(
            kind.referenceProblems(in: IntentValues(["format": .string("%H:%M:%S")])).map(\.parameter) == ["format"])
        #expect(kind.referenceProblems(in: IntentValues(["format": .string("%T")])).count == 1)
        #expect(kind.referenceProblems(in: IntentValues(["format": .string("%T"), "seconds": .bool(true)])).isEmpty)
        #expect(kind.referenceProblems(in: IntentValues(["format": .string("%H:%M 100%%S")])).isEmpty)
        #expect(kind.referenceProblems(in: IntentValues()).isEmpty)
    }

    /// The gallery lists every conversion the format takes, no more.
    @Test func theFormatsSummaryListsEveryConversion() throws {
        let summary = try #require(kind.parameter(named: "format")?.summary)
        let listed = Set(summary.split(separator: " ").compactMap { $0.hasPrefix("%") ? $0.dropFirst().first : nil })
        #expect(listed == TimeFormat.conversions)
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

    /// `%Z` is tzdata's abbreviation, as `date` prints it: JST in Tokyo (ICU, which the clock used before, wrote
    /// GMT+9), IST in Kolkata, and tzdata's numeric name where it has no letters (+04 in Dubai).
    @Test(arguments: [
        ("Asia/Tokyo", "03:30 JST +0900"), ("Asia/Kolkata", "00:00 IST +0530"), ("Asia/Dubai", "22:30 +04 +0400"),
        ("America/New_York", "13:30 EST -0500"), ("Australia/Sydney", "05:30 AEDT +1100"),
    ])
    func zoneAbbreviationsAreTzdatas(_ zoneName: String, _ expected: String) async throws {
        var configuration = kind.defaultConfiguration
        configuration["format"] = .string("%H:%M %Z %z")
        let context = ProviderContext(
            instance: "c", family: .accessoryInline, now: now, timeZone: try Zone.load(identifier: zoneName))
        let timeline = try await kind.timeline(for: configuration, in: context)
        #expect(timeline.entry(at: now)?.content.text == expected)
    }

    /// The day of the year is counted in the clock's zone: 2026-11-29 is day 333 in Berlin while Tokyo is already
    /// on day 334 (it was taken in the daemon's zone before).
    @Test func dayOfTheYearIsTheClocksZones() async throws {
        var configuration = kind.defaultConfiguration
        configuration["format"] = .string("%j %a")
        let late = now.addingTimeInterval(3 * 3600)  // 21:30:27Z: 22:30 in Berlin, 06:30 on the 30th in Tokyo
        for (zoneName, expected) in [("Europe/Berlin", "333 Sun"), ("Asia/Tokyo", "334 Mon")] {
            let context = ProviderContext(
                instance: "c", family: .accessoryInline, now: late, timeZone: try Zone.load(identifier: zoneName))
            let timeline = try await kind.timeline(for: configuration, in: context)
            #expect(timeline.entry(at: late)?.content.text == expected, "\(zoneName)")
        }
    }

    /// Issue 15: a clock keeps counting past 9999 (ICU's formatting gave up there); `%F` writes the year as `date` does.
    @Test func yearTenThousandFormats() async throws {
        var configuration = kind.defaultConfiguration
        configuration["format"] = .string("%a %F %T %Z")
        let year10000 = Date(timeIntervalSince1970: 253_402_300_800)  // 10000-01-01T00:00:00Z, a Saturday
        let context = ProviderContext(instance: "c", family: .systemSmall, now: year10000, timeZone: berlin)
        let timeline = try await kind.timeline(for: configuration, in: context)
        #expect(timeline.entry(at: year10000)?.content.text == "Sat +10000-01-01 01:00:00 CET")
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
