import FoundationEssentials
import TimeZones
import Timelines

/// What a provider call knows about the instance it serves (WidgetKit's `TimelineProviderContext`).
public struct ProviderContext: Sendable {
    /// The instance name from `widgets.yaml`.
    public var instance: String
    public var family: Family
    /// False when the config names no `family:` (see `WidgetInstance.familyIsChosen`).
    public var familyIsChosen: Bool
    /// True for `widgetd preview`: show representative content, do no slow work.
    public var isPreview: Bool
    /// The wall-clock instant of the call; providers date their entries from it, never from the system clock.
    public var now: Date
    /// The instance's `timezone:`, else the local zone.
    public var timeZone: Zone
    /// What the instance shows as the call starts, so a kind can continue from it (the quotes kind shows
    /// the next quote); nil for previews and before the first entry.
    public var current: EntryContent?
    /// The instance's values for the kind's own widget-level keys (`widgetKeys`).
    public var settings: WidgetSettings
    /// The daemon's clock, for a session's pauses (`startSession`); the wall clock unless the daemon's is another.
    public var clock: any SessionClock = WallSessionClock()
    /// The call's place in its widget's line, which the kind gave the daemon as it handed the call out
    /// (`WidgetKind.placeInLine`); nil when the kind keeps no line, or the call does not come from the daemon.
    public var placeInLine: (any PlaceInLine)?

    public init(
        instance: String, family: Family, familyIsChosen: Bool = true, isPreview: Bool = false, now: Date,
        timeZone: Zone = .current,
        current: EntryContent? = nil, settings: WidgetSettings = WidgetSettings()
    ) {
        self.instance = instance
        self.family = family
        self.familyIsChosen = familyIsChosen
        self.isPreview = isPreview
        self.now = now
        self.timeZone = timeZone
        self.current = current
        self.settings = settings
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
    /// True for a kind whose `intent:` takes any parameter name, passing each on as a string (`exec`).
    var acceptsAnyParameter: Bool { get }
    /// How the kind hands its parameters on to a program under names of the program's (`exec`: a script's
    /// environment), for the config checker to hold every name to; nil (the default) when they reach the provider as
    /// written.
    var parameterExport: ParameterExport? { get }
    /// True for a kind whose `on_click:` may name any intent: one whose intents are not known yet (a stand-in for a
    /// plugin that failed to load).
    var acceptsAnyIntent: Bool { get }
    /// True for a kind whose calls read or write the shared store (`motivations`, `todos`): the daemon runs them on a
    /// lane of their own, so a store locked by another process holds up no other kind.
    var usesStore: Bool { get }
    /// Whether a restarted daemon shows an instance's last entry, kept at each timeline and at the stop, until its
    /// first timeline arrives (a quote stays the same quote). False for a reading of the system, which is stale once
    /// taken and read again at once: nothing of it is kept or written for it.
    var keepsEntryAcrossRestarts: Bool { get }
    /// True for a kind that shows a bar's block as a status program would (`exec`, the system kinds): a widget whose
    /// config names no `family:` shows its text whole, as i3blocks and i3status do, instead of cut to the default
    /// family's width. False (the default): the default family cuts, as a named one does.
    var showsWholeTextWithoutFamily: Bool { get }
    /// The next reload after `now` of a widget with `settings`, for a kind whose reloads follow a fixed rule on the
    /// wall clock (a sampled kind's `interval:`); nil (the default) for one whose reloads follow no such rule. A
    /// widget whose kind has a rule keeps its record as it was when a reload brings nothing new (only the next
    /// reload's date would change), and `list` names the next reload from the rule once the record's has passed.
    func nextScheduledReload(after now: Date, settings: WidgetSettings) -> Date?
    /// The program of its own the kind's calls go to (a plugin's), or nil (the default) for a kind that works inside
    /// the daemon: the daemon runs such calls on a lane of their own, since each waits for another process's answer,
    /// and stops the program as it exits.
    var providerProcess: (any ProviderProcess)? { get }
    /// Why the kind only stands in for one that is not loaded (a plugin that failed to load), its widgets shown as a
    /// placeholder until the real kind replaces it; nil (the default) for a kind that serves its widgets. The daemon
    /// tells the log which widgets wait, and swaps stand-ins for fresh ones, without knowing the type.
    var notLoadedReason: String? { get }
    /// What provides the kind when it comes from outside widgetd, as `widgetd kinds` names it (a plugin's name,
    /// version and command); nil (the default) for a kind built in. Such a kind's names and summaries are its
    /// provider's own text, which the commands print escaped.
    var provider: String? { get }
    /// Widget-level keys of the kind's own, beside the core's (`exec`'s `command:`, `interval:`); the config loader
    /// checks them and hands their values to the kind in `ProviderContext.settings`.
    var widgetKeys: [WidgetKeySpec] { get }

    /// How the daemon runs the provider for an instance with these settings.
    func runMode(for settings: WidgetSettings) -> RunMode

    /// Content to paint at once, before any timeline: generic, with no data access.
    func placeholder(in context: ProviderContext) -> EntryContent
    /// One representative entry, for previews and the widget gallery.
    func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry
    /// The entries to show from now on, and when to ask again.
    func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline
    /// The same timeline, computed at once on the caller's thread, for a kind that works in memory and never waits
    /// (`quotes`, `clock`): the daemon asks on its loop thread, with no thread hop between a reload and its file.
    /// nil (the default): the kind may wait (a command, a plugin, the store), and the daemon calls `timeline` on a
    /// provider thread.
    func immediateTimeline(for configuration: IntentValues, in context: ProviderContext) throws -> Timeline?
    /// Whether `immediateTimeline` answers (false: it gives nil): the daemon hands such a kind's reloads out after
    /// those that run on provider threads, so that the threads' calls run while the loop computes these.
    var answersAtOnce: Bool { get }
    /// The intent a click on `button` runs when `on_click:` binds nothing to it.
    func defaultIntent(for button: MouseButton) -> String?
    /// What is wrong with the data outside widgets.yaml a configuration names (a stored record's id that matches
    /// nothing), or with parameters that are each valid but go together badly (a clock's `%S` without `seconds`),
    /// for `widgetd check` to print as warnings at the parameter: no error, the widget runs. Only reads; never
    /// creates the store.
    func referenceProblems(in configuration: IntentValues) -> [ReferenceProblem]
    /// Runs an intent (it may write the shared store); the daemon reloads the kind's widgets afterwards.
    func perform(_ invocation: IntentInvocation, for configuration: IntentValues, in context: ProviderContext)
        async throws -> IntentOutcome
    /// Puts a call for `instance` in the widget's line as the daemon hands it out (`invocation`: the intent it runs,
    /// nil for a timeline), on the daemon's loop thread and so in the order the reloads and clicks came; the call finds
    /// it in `ProviderContext.placeInLine`. For a kind whose calls of one widget must not overlap and merge while they
    /// wait (`exec`, as i3blocks runs a block): the threads the calls run on start in any order, so a line joined
    /// there would lose the order they came in. Nil (the default): the kind keeps no line.
    func placeInLine(for instance: String, invocation: IntentInvocation?) -> (any PlaceInLine)?
    /// Starts the long-running provider of an instance whose run mode is persistent; it reports through `updates`
    /// (from any thread) until stopped.
    func startSession(
        for configuration: IntentValues, in context: ProviderContext,
        updates: @escaping @Sendable (SessionUpdate) -> Void
    ) throws -> any ProviderSession
}

/// A parameter whose value names something that is not there, and what to say about it.
public struct ReferenceProblem: Sendable, Equatable {
    /// The intent parameter, as widgets.yaml writes it under `intent:`.
    public var parameter: String
    public var message: String

    public init(parameter: String, message: String) {
        self.parameter = parameter
        self.message = message
    }
}

/// What a persistent provider reports.
public enum SessionUpdate: Sendable {
    /// New content, to show at once.
    case timeline(Timeline)
    /// The provider stopped and will be started again; the widget keeps its last entry, marked stale.
    case stopped(reason: String)
    /// Something it printed cannot be shown (JSON that does not parse): the widget keeps its last entry, marked stale,
    /// with the reason as its last error until the next good update.
    case unusable(reason: String)
    /// Something for the daemon's log (output was cut, a flood was slowed down).
    case note(String)
}

/// A running persistent provider (i3blocks' `interval=persist` script).
public protocol ProviderSession: AnyObject, Sendable {
    /// Hands it a click or an intent; returns why it could not take it, if it could not (a script that stopped
    /// reading its clicks), which the click's answer says. What fails later, once taken, is a `SessionUpdate.note`.
    func deliver(_ invocation: IntentInvocation) -> String?
    /// Ends it, with everything it started; no update follows.
    func stop()
}

extension WidgetKind {
    public var intents: [IntentSpec] { [] }

    public var acceptsAnyParameter: Bool { false }

    public var parameterExport: ParameterExport? { nil }

    public var acceptsAnyIntent: Bool { false }

    public var widgetKeys: [WidgetKeySpec] { [] }

    public func runMode(for settings: WidgetSettings) -> RunMode { .inProcess }

    public func startSession(
        for configuration: IntentValues, in context: ProviderContext,
        updates: @escaping @Sendable (SessionUpdate) -> Void
    ) throws -> any ProviderSession {
        throw IntentError("kind '\(name)' has no persistent mode")
    }

    public func widgetKey(named name: String) -> WidgetKeySpec? {
        widgetKeys.first { $0.name == name }
    }

    public var usesStore: Bool { false }

    public var keepsEntryAcrossRestarts: Bool { true }

    public var showsWholeTextWithoutFamily: Bool { false }

    public func nextScheduledReload(after now: Date, settings: WidgetSettings) -> Date? { nil }

    public var providerProcess: (any ProviderProcess)? { nil }

    public var notLoadedReason: String? { nil }

    public var provider: String? { nil }

    public func immediateTimeline(for configuration: IntentValues, in context: ProviderContext) throws -> Timeline? {
        nil
    }

    public var answersAtOnce: Bool { false }

    public func defaultIntent(for button: MouseButton) -> String? { nil }

    public func placeInLine(for instance: String, invocation: IntentInvocation?) -> (any PlaceInLine)? { nil }

    public func referenceProblems(in configuration: IntentValues) -> [ReferenceProblem] { [] }

    public func perform(
        _ invocation: IntentInvocation, for configuration: IntentValues, in context: ProviderContext
    ) async throws -> IntentOutcome {
        throw IntentError("kind '\(name)' has no intent '\(invocation.intent)'")
    }

    public func intent(named name: String) -> IntentSpec? {
        intents.first { $0.name == name }
    }

    /// Refuses `invocation` unless its intent is one of `intents`: the first thing a `perform` checks.
    public func requireDeclared(_ invocation: IntentInvocation) throws(IntentError) {
        guard intent(named: invocation.intent) != nil else {
            throw IntentError("kind '\(name)' has no intent '\(invocation.intent)'")
        }
    }

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
    /// Plugins that were found and failed (no hello, a bad declaration), by name, with the reason: a widget naming one
    /// as its kind is told why the kind is missing, not only that it is.
    public let unavailable: [String: String]
    /// The top-level sections of widgets.yaml the kinds read, beside the core's. They belong to the registry, not to
    /// a kind: `plugins:` is read before the kinds its plugins serve exist.
    public let sections: [any TopLevelSection]
    /// Each kind's place in `kinds` by its name (the first kind of a name, as a search in order finds): the daemon
    /// looks a widget's kind up several times at each of its reloads.
    private let indexByName: [String: Int]

    public init(
        _ kinds: [any WidgetKind], unavailable: [String: String] = [:], sections: [any TopLevelSection] = []
    ) {
        self.kinds = kinds
        self.unavailable = unavailable
        self.sections = sections
        var indexByName: [String: Int] = [:]
        for (index, kind) in kinds.enumerated() where indexByName[kind.name] == nil { indexByName[kind.name] = index }
        self.indexByName = indexByName
    }

    /// The registry with other kinds and unavailable plugins, reading the same sections.
    public func with(kinds: [any WidgetKind], unavailable: [String: String]) -> KindRegistry {
        KindRegistry(kinds, unavailable: unavailable, sections: sections)
    }

    public var names: [String] { kinds.map(\.name) }

    public func kind(named name: String) -> (any WidgetKind)? {
        indexByName[name].map { kinds[$0] }
    }

    /// The section read under top-level `key`, if a kind reads one.
    public func section(forKey key: String) -> (any TopLevelSection)? {
        sections.first { $0.key == key }
    }
}
