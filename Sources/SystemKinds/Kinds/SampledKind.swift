import FoundationEssentials
import Kind
import Timelines

/// A kind that samples a value of the system at its widget's `interval:`: one reading makes the snapshot, the timeline
/// and, for a reading quick enough, the daemon's answer on its loop thread.
public protocol SampledKind: WidgetKind {
    /// Whether a reading may run on the daemon's loop thread (`immediateTimeline`): a small /proc file may; `statvfs`
    /// of a network mount, or a sensor read over a slow bus, may block, and runs on a provider thread.
    static var readsOnTheLoop: Bool { get }
    /// The `{names}` its `format:` knows, for `check`.
    static var placeholders: [String] { get }
    /// One reading as a timeline. `keepsSample`: false for a snapshot or a preview, which must not change what a
    /// kind that counts from its previous reading (`cpu`) counts the widget's next one from.
    func sample(_ configuration: IntentValues, in context: ProviderContext, keepsSample: Bool) throws -> Timeline
}

extension SampledKind {
    /// A sample is read again at once after a restart: a kept one would only show a stale value meanwhile.
    public var keepsEntryAcrossRestarts: Bool { false }

    public func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        try sample(configuration, in: context, keepsSample: false).entries[0]
    }

    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        try sample(configuration, in: context, keepsSample: !context.isPreview)
    }

    public func immediateTimeline(for configuration: IntentValues, in context: ProviderContext) throws -> Timeline? {
        Self.readsOnTheLoop ? try sample(configuration, in: context, keepsSample: !context.isPreview) : nil
    }

    public var answersAtOnce: Bool { Self.readsOnTheLoop }

    public func referenceProblems(in configuration: IntentValues) -> [ReferenceProblem] {
        placeholderProblems(in: configuration)
    }

    /// `{names}` in `format:` that this kind does not know.
    func placeholderProblems(in configuration: IntentValues) -> [ReferenceProblem] {
        SampledParameters.unknownPlaceholders(
            in: configuration, known: Self.placeholders.contains, list: Self.placeholders.joined(separator: ", "))
    }
}

/// A sampled kind read at its widget's `interval:`, on the interval's boundaries on the wall clock
/// (`SampledParameters.timeline`).
public protocol IntervalSampledKind: SampledKind {
    /// How often a widget that names no `interval:` is sampled.
    static var defaultInterval: TimeInterval { get }
}

extension IntervalSampledKind {
    /// The interval's next boundary, where the daemon samples next.
    public func nextScheduledReload(after now: Date, settings: WidgetSettings) -> Date? {
        SampledParameters.nextBoundary(after: now, every: settings.duration("interval") ?? Self.defaultInterval)
    }
}
