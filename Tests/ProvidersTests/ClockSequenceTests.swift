import Config
import Formats
import Foundation
import Kind
import Providers
import Testing
import TimeZones
import Timelines

/// The clock's computed timeline against the stored one it replaced, and what holding it costs.
@Suite("clock: computed timeline")
struct ClockSequenceTests {
    let kind = ClockKind()

    /// The clock's timeline as a previous version built it: every entry formatted on its own (each with its own
    /// look-up of the zone's offset; `TimeFormatTests` checks that against Python's strftime) and stored,
    /// consecutive equal texts kept once.
    static func storedTimeline(format: String, step: TimeInterval, now: Date, zone: Zone) -> Timeline {
        let formatter = TimeFormat(format)
        let start = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / step).rounded(.down) * step)
        var entries: [TimelineEntry] = []
        var previous: String?
        for index in 0..<Int(3600 / step) {
            let date = start.addingTimeInterval(step * Double(index))
            let text = formatter.string(at: Int(date.timeIntervalSince1970.rounded(.down)), in: zone)
            if text == previous { continue }
            previous = text
            entries.append(TimelineEntry(date: date, content: EntryContent(text: text)))
        }
        return Timeline(entries: entries, policy: .atEnd)
    }

    func computed(format: String, seconds: Bool, now: Date, zone: Zone) async throws -> Timeline {
        var configuration = kind.defaultConfiguration
        configuration["format"] = .string(format)
        configuration["seconds"] = .bool(seconds)
        let context = ProviderContext(instance: "c", family: .accessoryInline, now: now, timeZone: zone)
        return try await kind.timeline(for: configuration, in: context)
    }

    /// Every second of the hour (and a minute either side) gives what the stored timeline gave: across Berlin's
    /// spring-forward and fall-back hours, Kolkata's +05:30 and Adelaide's +10:30 → +09:30.
    @Test(arguments: [
        ("Europe/Berlin", "2026-03-29T00:30:17Z"), ("Europe/Berlin", "2026-10-25T00:29:59Z"),
        ("Asia/Kolkata", "2026-11-29T18:00:00Z"), ("Australia/Adelaide", "2026-04-04T16:05:42Z"),
    ])
    func everyInstantShowsWhatTheStoredTimelineShowed(zoneName: String, iso: String) async throws {
        let zone = try Zone.load(identifier: zoneName)
        let now = try #require(ISO8601Text.parse(iso, defaultTimeZone: zone))
        for (format, seconds) in [("%a %d %b %Y %H:%M:%S %Z %z %j", true), ("%I:%M %p %Z", false), ("%H:%M", true)] {
            let step: TimeInterval = seconds ? 1 : 60
            let old = Self.storedTimeline(format: format, step: step, now: now, zone: zone)
            let new = try await computed(format: format, seconds: seconds, now: now, zone: zone)
            var mismatches: [String] = []
            for offset in stride(from: -60.0, through: 3660, by: 0.5) {
                let date = now.addingTimeInterval(offset)
                let before = old.entry(at: date)?.content.text
                let after = new.entry(at: date)?.content.text
                if before != after { mismatches.append("\(offset): \(before ?? "nil") ≠ \(after ?? "nil")") }
            }
            #expect(mismatches.isEmpty, "\(zoneName) \(format): \(mismatches.prefix(5))")
            // The engine's `.atEnd` reload comes no later than the stored timeline's did.
            #expect(try #require(new.lastEntryDate) >= (old.entries.last?.date ?? now))
        }
    }

    @Test func thePerSecondClockIsHeldAsARuleOfAFewHundredBytes() async throws {
        let zone = try Zone.load(identifier: "Europe/Berlin")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let timeline = try await computed(format: "%T", seconds: true, now: now, zone: zone)
        let instance = WidgetInstance(name: "c", kind: "clock", family: .accessoryInline)
        var engine = Engine(instances: [instance], placeholders: [:], now: now)
        let actions = engine.advance(now: now)
        let token = try #require(
            actions.compactMap { action -> UInt64? in
                if case .reload(_, let token) = action { return token }
                return nil
            }.first)
        _ = engine.completed(instance: "c", token: token, result: .success(timeline), now: now)

        let record = try #require(engine.record(of: "c"))
        #expect(record.entries.isEmpty)
        #expect(record.sequence?.count == 3600)
        let bytes = try record.encoded()
        #expect(bytes.count < 512, "\(String(decoding: bytes, as: UTF8.self))")
        // The record alone gives every second's text, as followers and `widgetd bar` read it.
        let decoded = try JSONDecoder().decode(InstanceRecord.self, from: Data(bytes))
        #expect(decoded == record)
        #expect(decoded.content(at: now.addingTimeInterval(61.5)).text == "09:01:01")
        #expect(decoded.nextChange(after: now.addingTimeInterval(61.5)) == now.addingTimeInterval(62))
        // Each second the engine shows the next text, and wakes one second later.
        for second in 1...5 {
            let date = now.addingTimeInterval(Double(second))
            #expect(engine.nextDeadline() == date)
            let shown = engine.advance(now: date).compactMap { action -> String? in
                if case .show(_, let content) = action { return content.text }
                return nil
            }
            // 1_800_000_000 is 2027-01-15T08:00:00Z, 09:00:00 in Berlin.
            #expect(shown == ["09:00:0\(second)"])
        }
    }
}
