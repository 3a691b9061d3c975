import FoundationEssentials
import Kind
import Store
import Text
import TimeZones
import Timelines
import YAML

/// One motivation from the shared store (seed 000's configurable widget): chosen by id, id prefix or
/// search, else the newest; led by the seed's star, filled when favourite and hollow when not (`Symbols`), so a click
/// always changes what the bar shows; painted in the record's colour; a left click toggles the favourite. Policy
/// `.never`: it changes only when the app (the CLI) or a click changes the store.
public struct MotivationsKind: WidgetKind {
    public let name = "motivations"
    public let displayName = "Motivation"
    public let summary = "A motivation from your store, with its favourite star and colour; click to favourite."
    public var usesStore: Bool { true }
    public let families: [Family] = [
        .systemSmall, .systemMedium, .systemLarge, .accessoryInline, .accessoryRectangular,
    ]
    public let parameters = [
        ParameterSpec(
            "motivation", displayName: "Motivation", type: .entity("motivation"),
            summary: "An id or id prefix ('widgetd entities motivations' lists them), or {match: TEXT}; "
                + "absent: the newest."),
        ParameterSpec(
            "show_timestamp", displayName: "Show Timestamp", type: .bool, default: .bool(false),
            summary: "Show when the motivation was added."),
        Symbols.parameter,
    ]
    public let intents = [IntentSpec("toggle-favorite", summary: "Mark or unmark the motivation as a favourite.")]

    /// The seed's text when there is no motivation to show.
    public static let fallbackText = "Stay motivated!"

    let store: StoreAccess

    public init(store: StoreAccess) {
        self.store = store
    }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        Self.placeholderContent
    }

    /// The same for every widget, made once: its colours sit in a box that each copy then shares.
    private static let placeholderContent: EntryContent = {
        let background = SeedColor.from(hex: Motivation.defaultBackgroundColorHex)
        // The text colour goes with the background, as for a stored motivation: a bar showing one shows both.
        return EntryContent(
            text: fallbackText, foreground: SeedColor.foreground(on: background), background: background)
    }()

    public func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        TimelineEntry(date: context.now, content: try content(for: configuration, in: context))
    }

    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        Timeline(entries: [try await snapshot(for: configuration, in: context)], policy: .never)
    }

    public func defaultIntent(for button: MouseButton) -> String? {
        button == .left ? "toggle-favorite" : nil
    }

    public func perform(
        _ invocation: IntentInvocation, for configuration: IntentValues, in context: ProviderContext
    ) async throws -> IntentOutcome {
        try requireDeclared(invocation)
        guard let motivation = try resolve(configuration) else {
            throw IntentError("there is no motivation to favourite; add one with 'widgetd motivations add'")
        }
        let toggled = try store.open().motivations.toggleFavorite(id: motivation.id)
        return IntentOutcome(
            "\(toggled.isFavorite ? "favourite" : "no longer favourite"): \(toggled.message ?? "(no message)")")
    }

    /// A configured id that matches no stored motivation, as the widget would show it. With no store file yet, every
    /// id is missing; the file is not made here.
    public func referenceProblems(in configuration: IntentValues) -> [ReferenceProblem] {
        guard case .id(let reference)? = configuration.entity("motivation") else { return [] }
        guard FileManager.default.fileExists(atPath: store.path) else {
            return [
                ReferenceProblem(
                    parameter: "motivation",
                    message: "no motivation with id '\(reference)': there is no store at \(store.path) yet; "
                        + "'widgetd motivations add' makes it")
            ]
        }
        do {
            _ = try resolve(configuration)
            return []
        } catch {
            return [ReferenceProblem(parameter: "motivation", message: "\(error)")]
        }
    }

    /// The configured motivation: by id or prefix, by the first match of a search, or the newest.
    func resolve(_ configuration: IntentValues) throws -> Motivation? {
        let motivations = try store.open().motivations
        switch configuration.entity("motivation") {
        case .id(let reference)?:
            do {
                return try motivations.resolve(reference: reference)
            } catch .notFound {
                // A typo, or deleted since the config was written. The seed's widget fell back to its default text
                // without a word; here the widget shows the error (keeping its last good entry), naming the id.
                throw MissingMotivation(reference: reference, stored: try motivations.suggested())
            }
        case .match(let text)?:
            // As an id that names nothing: a search that finds nothing in a store that has motivations is the
            // widget's error, not the empty store's "Stay motivated!".
            if let found = try motivations.matching(text).first { return found }
            guard try motivations.defaultResult() == nil else {
                throw UnmatchedSearch(text: text)
            }
            return nil
        case nil:
            return try motivations.defaultResult()
        }
    }

    private func content(for configuration: IntentValues, in context: ProviderContext) throws -> EntryContent {
        guard let motivation = try resolve(configuration) else { return placeholder(in: context) }
        let message = motivation.message ?? Self.fallbackText
        let symbols = Symbols.chosen(in: configuration)
        let star = (motivation.isFavorite ? symbols.favorite : symbols.notFavorite) + " "
        var text = star + message
        let stamp = Self.timestampText(motivation.timestamp, in: context.timeZone)
        if configuration.bool("show_timestamp") == true {
            text += " · " + stamp
        }
        let background = SeedColor.from(hex: motivation.backgroundColorHex)
        return EntryContent(
            text: text, shortText: star + message, tooltip: "\(message)\nadded \(stamp) · id \(motivation.id)",
            foreground: SeedColor.foreground(on: background), background: background,
            classes: motivation.isFavorite ? ["favorite"] : [])
    }

    /// "29 Nov 2026, 19:30": the seed's abbreviated date and shortened time.
    public static func timestampText(_ date: Date, in zone: Zone) -> String {
        // `%e` pads a one-digit day with a space, which the seed's text does not have.
        String(TimeFormat("%e %b %Y, %H:%M").string(at: date.wholeSecondsSince1970, in: zone).drop { $0 == " " })
    }
}

/// A configured `{match: TEXT}` that finds nothing in a store that has motivations.
struct UnmatchedSearch: Error, CustomStringConvertible {
    var text: String

    var description: String {
        "no motivation matches '\(TerminalText.escaped(text))'; 'widgetd motivations search TEXT' tries a search"
    }
}

/// A configured motivation id that matches no stored motivation, with the closest stored id as a suggestion.
struct MissingMotivation: Error, CustomStringConvertible {
    var reference: String
    var stored: [Motivation]

    var description: String {
        // Compare with each id cut to the reference's length, so a mistyped prefix finds its record.
        let prefixes = stored.map { String($0.id.prefix(reference.count)) }
        let text = "no motivation with id '\(reference)'"
        if let closest = Suggestion.closest(to: reference, in: prefixes),
            let match = stored.first(where: { $0.id.hasPrefix(closest) })
        {
            // The message is the store's, whatever a script put there: it reaches `check`'s output and `list`'s table.
            let message = ConfigLimits.quoted(TerminalText.escaped(match.message ?? ""))
            return text + "; did you mean '\(closest)' (\(message))?"
        }
        return text + "; 'widgetd entities motivations' lists them"
    }
}
