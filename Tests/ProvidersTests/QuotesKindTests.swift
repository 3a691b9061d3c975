import Foundation
import Kind
import Providers
import Testing
import Timelines

@Suite("quotes kind")
struct QuotesKindTests {
    let kind = QuotesKind()
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func configuration(_ category: String) -> IntentValues {
        IntentValues(["category": .enumCase(category)])
    }

    @Test func declaresItsCategoryWithDisplayNamesAndDefault() throws {
        let parameter = try #require(kind.parameter(named: "category"))
        #expect(parameter.defaultValue == .enumCase("motivation"))
        #expect(
            parameter.type
                == .enumeration([
                    EnumCase("motivation", displayName: "Motivation"), EnumCase("focus", displayName: "Focus"),
                    EnumCase("mindfulness", displayName: "Mindfulness"),
                ]))
        #expect(kind.families.contains(.systemSmall))
        #expect(kind.families.contains(.systemMedium))
    }

    @Test func placeholderIsTheSeedsLine() {
        let context = ProviderContext(instance: "q", family: .systemSmall, now: now)
        #expect(kind.placeholder(in: context).text == "Small steps count.")
    }

    /// The daemon calls `immediateTimeline` on its loop's thread; it must be the provider's own answer.
    @Test func answersAtOnceWithTheSameTimeline() async throws {
        let shown = EntryContent(
            text: try await kind.timeline(
                for: configuration("focus"),
                in: ProviderContext(
                    instance: "q", family: .systemSmall, now: now)
            ).entries[0].content.text)
        let context = ProviderContext(instance: "q", family: .systemSmall, now: now, current: shown)
        let immediate = try #require(try kind.immediateTimeline(for: configuration("focus"), in: context))
        #expect(immediate == (try await kind.timeline(for: configuration("focus"), in: context)))
        #expect(immediate.entries[0].content.text != shown.text)
    }

    @Test func timelineIsOneEntryAskingAgainInAnHour() async throws {
        let context = ProviderContext(instance: "q", family: .systemSmall, now: now)
        let timeline = try await kind.timeline(for: configuration("focus"), in: context)
        #expect(timeline.entries.count == 1)
        #expect(timeline.entries[0].date == now)
        #expect(timeline.policy == .after(now.addingTimeInterval(3600)))
    }

    @Test(arguments: ["motivation", "focus", "mindfulness"])
    func eachHourOfADayShowsAQuoteOfTheCategory(_ category: String) async throws {
        var seen: Set<String> = []
        for hour in 0..<24 {
            let context = ProviderContext(
                instance: "q", family: .systemSmall, now: now.addingTimeInterval(3600 * Double(hour)))
            let entry = try await kind.snapshot(for: configuration(category), in: context)
            seen.insert(entry.content.text)
            #expect(entry.content.tooltip?.hasSuffix(entry.content.text) == true)
        }
        // Several quotes per category, and they rotate.
        #expect(seen.count >= 5)
        let others = ["motivation", "focus", "mindfulness"].filter { $0 != category }
        for other in others {
            let context = ProviderContext(instance: "q", family: .systemSmall, now: now)
            let entry = try await kind.snapshot(for: configuration(other), in: context)
            #expect(!seen.contains(entry.content.text))
        }
    }

    @Test func rotationIsStableWithinAnHour() async throws {
        let hourStart = Date(timeIntervalSince1970: TimeInterval(1_800_000_000 - 1_800_000_000 % 3600))
        let early = ProviderContext(instance: "q", family: .systemSmall, now: hourStart)
        let late = ProviderContext(instance: "q", family: .systemSmall, now: hourStart.addingTimeInterval(3599))
        let a = try await kind.snapshot(for: configuration("focus"), in: early)
        let b = try await kind.snapshot(for: configuration("focus"), in: late)
        #expect(a.content.text == b.content.text)
    }
}

@Suite("quotes rotation")
struct QuotesRotationTests {
    @Test func eachTimelineShowsTheQuoteAfterTheOneShown() async throws {
        let kind = QuotesKind()
        let configuration = IntentValues(["category": .enumCase("focus")])
        var shown: EntryContent? = nil
        var seen: [String] = []
        for _ in 0..<7 {
            let context = ProviderContext(
                instance: "q", family: .systemSmall, now: Date(timeIntervalSince1970: 1_800_000_000), current: shown)
            let timeline = try await kind.timeline(for: configuration, in: context)
            shown = timeline.entries.first?.content
            seen.append(shown?.text ?? "")
        }
        // Six focus quotes, each once, then round again.
        #expect(Set(seen.prefix(6)).count == 6)
        #expect(seen[6] == seen[0])
        #expect(QuotesKind.quote(in: "focus", after: "Guard your attention.") == "Single-task this hour.")
        #expect(QuotesKind.quote(in: "focus", after: "Single-task this hour.") == "One thing at a time.")
        #expect(QuotesKind.quote(in: "focus", after: "Small steps count.") == nil)
    }
}
