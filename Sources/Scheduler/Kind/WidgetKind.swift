import Foundation

/// What a provider call knows about the instance it serves (WidgetKit's `TimelineProviderContext`).
public struct ProviderContext: Sendable {
    /// The instance name from `widgets.yaml`.
    public var instance: String
    public var family: Family
    /// True for `widgetd preview`: show representative content, do no slow work.
    public var isPreview: Bool
    /// The wall-clock instant of the call; providers date their entries from it, never from the system clock.
    public var now: Date
    /// The instance's `timezone:`, else the local zone.
    public var timeZone: TimeZone
    /// What the instance shows as the call starts, so a kind can continue from it (the quotes kind shows
    /// the next quote); nil for previews and before the first entry.
    public var current: EntryContent?

    public init(
        instance: String, family: Family, isPreview: Bool = false, now: Date, timeZone: TimeZone = .current,
        current: EntryContent? = nil
    ) {
        self.instance = instance
        self.family = family
        self.isPreview = isPreview
        self.now = now
        self.timeZone = timeZone
        self.current = current
    }
}

/// A widget kind: its declaration (name, families, parameters) and its provider (WidgetKit's `Widget` plus
/// `AppIntentTimelineProvider`).
///
/// Providers are values that return timelines; they never write outputs or sleep. The daemon's loop owns
/// all state and all files.
public protocol WidgetKind: Sendable {
    /// The name `kind:` uses in `widgets.yaml`.
    var name: String { get }
    var displayName: String { get }
    var summary: String { get }
    /// Supported families; the first is the default when an instance names none.
    var families: [Family] { get }
    var parameters: [ParameterSpec] { get }
    /// Actions this kind performs on clicks and `intent` lines.
    var intents: [IntentSpec] { get }

    /// Content to paint at once, before any timeline: generic, with no data access.
    func placeholder(in context: ProviderContext) -> EntryContent
    /// One representative entry, for previews and the widget gallery.
    func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry
    /// The entries to show from now on, and when to ask again.
    func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline
}

extension WidgetKind {
    public var intents: [IntentSpec] { [] }

    public func parameter(named name: String) -> ParameterSpec? {
        parameters.first { $0.name == name }
    }

    /// The configuration with every parameter at its default, as a freshly added widget has.
    public var defaultConfiguration: IntentValues {
        var values = IntentValues()
        for parameter in parameters {
            values[parameter.name] = parameter.defaultValue
        }
        return values
    }
}

/// The kinds the daemon and the CLI know, by name.
public struct KindRegistry: Sendable {
    public let kinds: [any WidgetKind]

    public init(_ kinds: [any WidgetKind]) {
        self.kinds = kinds
    }

    public var names: [String] { kinds.map(\.name) }

    public func kind(named name: String) -> (any WidgetKind)? {
        kinds.first { $0.name == name }
    }
}
