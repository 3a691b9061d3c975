import FoundationEssentials
import Kind
import Timelines

/// A kind whose value the kernel announces with a uevent of `subsystem` (a battery, a backlight): each widget is a
/// session that reads the value at its start, at each such uevent and at its safety re-read, and pushes the timeline.
public protocol PushedKind: WidgetKind {
    /// The uevents' `SUBSYSTEM` that announce a change.
    static var subsystem: String { get }
    /// How often a session reads the value with no uevent, for firmware that changes it unannounced.
    static var safetyInterval: Duration { get }
    /// The `{names}` its `format:` knows, for `check`.
    static var placeholders: [String] { get }
    /// The files it reads and the socket its uevents arrive on.
    var sources: UeventSources { get }
    init(sources: UeventSources)
    /// The value read now, as the timeline to show from `now`.
    func reading(_ configuration: IntentValues, in context: ProviderContext, at now: Date) -> Timeline
}

extension PushedKind {
    /// A kind reading `files` (the system's by default) again at each uevent on `listener` (the process's one socket).
    public init(files: SystemFiles = .standard, listener: UeventListener = .shared) {
        self.init(sources: UeventSources(files: files, listener: listener))
    }

    public func runMode(for settings: WidgetSettings) -> RunMode { RunMode(isPersistent: true) }

    /// A session reads the value as it starts: a kept one would only show a stale value meanwhile.
    public var keepsEntryAcrossRestarts: Bool { false }

    public func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        reading(configuration, in: context, at: context.now).entries[0]
    }

    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        reading(configuration, in: context, at: context.now)
    }

    public func referenceProblems(in configuration: IntentValues) -> [ReferenceProblem] {
        SampledParameters.unknownPlaceholders(
            in: configuration, known: Self.placeholders.contains, list: Self.placeholders.joined(separator: ", "))
    }

    /// Pushes a timeline now, then one at each uevent of `subsystem` and each safety re-read, until stopped.
    public func startSession(
        for configuration: IntentValues, in context: ProviderContext,
        updates: @escaping @Sendable (SessionUpdate) -> Void
    ) throws -> any ProviderSession {
        try UeventSession.start(
            on: sources.listener, subsystem: Self.subsystem, safetyInterval: Self.safetyInterval,
            clock: context.clock, updates: updates
        ) { now in
            reading(configuration, in: context, at: now)
        }
    }
}
