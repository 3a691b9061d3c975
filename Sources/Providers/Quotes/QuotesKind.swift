import Foundation
import Scheduler

/// Short quotes from a chosen category (seed 001's configurable quote widget).
///
/// The quote rotates each hour: the timeline holds one entry and asks again an hour later, as the seed's
/// `.after(now + 1 h)` does, and which quote shows is derived from the hour, so it needs no stored state.
public struct QuotesKind: WidgetKind {
    public static let categories = [
        EnumCase("motivation", displayName: "Motivation"),
        EnumCase("focus", displayName: "Focus"),
        EnumCase("mindfulness", displayName: "Mindfulness"),
    ]

    public let name = "quotes"
    public let displayName = "Quote"
    public let summary = "Shows a quote from the selected category, a new one each hour."
    public let families: [Family] = [.systemSmall, .systemMedium, .systemLarge, .accessoryInline]
    public let parameters = [
        ParameterSpec(
            "category", displayName: "Category", type: .enumeration(QuotesKind.categories),
            default: .enumCase("motivation"), summary: "Which quotes to show.")
    ]

    /// How long one quote stays before the next timeline.
    static let rotation: TimeInterval = 60 * 60

    public init() {}

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "Small steps count.")
    }

    public func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        entry(for: configuration, at: context.now)
    }

    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        Timeline(
            entries: [entry(for: configuration, at: context.now)],
            policy: .after(context.now.addingTimeInterval(Self.rotation)))
    }

    private func entry(for configuration: IntentValues, at now: Date) -> TimelineEntry {
        let category = configuration.enumCase("category") ?? "motivation"
        let quote = Self.quote(in: category, at: now)
        let displayName = Self.categories.first { $0.name == category }?.displayName ?? category
        return TimelineEntry(date: now, content: EntryContent(text: quote, tooltip: "\(displayName): \(quote)"))
    }

    /// The quote of `category` for the hour containing `now`.
    static func quote(in category: String, at now: Date) -> String {
        let quotes = QuoteCollection.quotes[category] ?? QuoteCollection.quotes["motivation"] ?? ["Small steps count."]
        let hour = Int((now.timeIntervalSince1970 / rotation).rounded(.down))
        let index = ((hour % quotes.count) + quotes.count) % quotes.count
        return quotes[index]
    }
}
