import FoundationEssentials
import Kind
import Timelines

/// Short quotes from a chosen category (seed 001's configurable quote widget).
///
/// The timeline holds one entry and asks again an hour later, as the seed's `.after(now + 1 h)` does. Each
/// timeline shows the quote after the one the widget shows now, so the quotes rotate hourly and a reload
/// brings the next one; with nothing shown yet (start-up, previews) the hour picks the quote, so no state is
/// stored anywhere.
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

    public let intents = [IntentSpec("next", summary: "Show the next quote of the category.")]

    /// How long one quote stays before the next timeline.
    static let rotation: TimeInterval = 60 * 60

    public init() {}

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "Small steps count.")
    }

    public func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        let category = category(configuration)
        return entry(Self.quote(in: category, at: context.now), category: category, at: context.now)
    }

    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        nextTimeline(configuration, context)
    }

    /// In memory and quick: the daemon runs it on its loop thread.
    public var answersAtOnce: Bool { true }

    public func immediateTimeline(for configuration: IntentValues, in context: ProviderContext) throws -> Timeline? {
        nextTimeline(configuration, context)
    }

    private func nextTimeline(_ configuration: IntentValues, _ context: ProviderContext) -> Timeline {
        let category = category(configuration)
        // By position in the category's list, not by text: a reload runs this before the bar file's rename, and each
        // lookup by a quote's text hashed the whole quote.
        let quotes = Self.quotes(in: category)
        let index =
            context.current.flatMap { Self.index(in: quotes, after: $0.text) }
            ?? Self.index(in: quotes, at: context.now)
        let content = Self.contentsByIndex[category]?[index] ?? Self.content(quotes[index], category: category)
        return Timeline(
            entries: [TimelineEntry(date: context.now, content: content)],
            policy: .after(context.now.addingTimeInterval(Self.rotation)))
    }

    public func defaultIntent(for button: MouseButton) -> String? {
        button == .left ? "next" : nil
    }

    /// `next` changes nothing stored: the reload that follows every intent takes the quote after the one
    /// shown, so only the clicked widget needs to reload.
    public func perform(
        _ invocation: IntentInvocation, for configuration: IntentValues, in context: ProviderContext
    ) async throws -> IntentOutcome {
        try requireDeclared(invocation)
        return IntentOutcome("next quote", reloadsKind: false)
    }

    private func category(_ configuration: IntentValues) -> String {
        configuration.enumCase("category") ?? "motivation"
    }

    private func entry(_ quote: String, category: String, at now: Date) -> TimelineEntry {
        if let content = Self.contents[category]?[quote] { return TimelineEntry(date: now, content: content) }
        return TimelineEntry(date: now, content: Self.content(quote, category: category))
    }

    /// What a quote shows: the quote, and its category in the tooltip.
    private static func content(_ quote: String, category: String) -> EntryContent {
        let displayName = categories.first { $0.name == category }?.displayName ?? category
        return EntryContent(text: quote, tooltip: "\(displayName): \(quote)")
    }

    /// Every quote's content by category and text, made once: the widgets showing a quote share its tooltip and
    /// styling box instead of each building them (10,000 widgets show a few dozen quotes).
    private static let contents: [String: [String: EntryContent]] = {
        var table: [String: [String: EntryContent]] = [:]
        for (category, quotes) in QuoteCollection.quotes {
            for quote in quotes { table[category, default: [:]][quote] = content(quote, category: category) }
        }
        return table
    }()

    /// `contents` in the order of each category's quotes (`QuoteCollection.quotes`), for `nextTimeline`.
    private static let contentsByIndex: [String: [EntryContent]] = {
        var table: [String: [EntryContent]] = [:]
        for (category, quotes) in QuoteCollection.quotes {
            table[category] = quotes.map { contents[category]?[$0] ?? content($0, category: category) }
        }
        return table
    }()

    static func quotes(in category: String) -> [String] {
        QuoteCollection.quotes[category] ?? QuoteCollection.quotes["motivation"] ?? ["Small steps count."]
    }

    /// The quote of `category` for the hour containing `now`.
    static func quote(in category: String, at now: Date) -> String {
        let quotes = quotes(in: category)
        return quotes[index(in: quotes, at: now)]
    }

    /// The quote after `shown` in `category`, wrapping around; nil when `shown` is not one of its quotes.
    public static func quote(in category: String, after shown: String) -> String? {
        let quotes = quotes(in: category)
        return index(in: quotes, after: shown).map { quotes[$0] }
    }

    /// The position in `quotes` (not empty) of the quote for the hour containing `now`.
    private static func index(in quotes: [String], at now: Date) -> Int {
        let hour = Int((now.timeIntervalSince1970 / rotation).rounded(.down))
        return ((hour % quotes.count) + quotes.count) % quotes.count
    }

    /// The position in `quotes` of the quote after `shown`, wrapping around; nil when `shown` is not one of them.
    private static func index(in quotes: [String], after shown: String) -> Int? {
        quotes.firstIndex(of: shown).map { ($0 + 1) % quotes.count }
    }
}
