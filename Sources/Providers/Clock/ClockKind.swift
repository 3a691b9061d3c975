import FoundationEssentials
import Kind
import TimeZones
import Timelines

/// The time, as a computed timeline: one entry per minute (or second) for the coming hour, given by a rule.
///
/// WidgetKit's model at its plainest: the provider runs once an hour, and the daemon swaps the entries in
/// at their dates without running anything in between. The entries are a `TimelineSequence` (start, step, count,
/// format, zone) that the daemon and every reader of the record write out for any instant.
public struct ClockKind: WidgetKind {
    public let name = "clock"
    public let displayName = "Clock"
    public let summary = "The time, precomputed for the coming hour; costs nothing between timelines."
    public let families: [Family] = [.accessoryInline, .accessoryCircular, .systemSmall, .systemMedium]
    public let parameters = [
        ParameterSpec(
            "format", displayName: "Format", type: .format(conversions: String(TimeFormat.conversions.sorted())),
            default: .string("%H:%M"),
            summary:
                "strftime-style: %H %M %S %I %k %l %p %P %a %A %b %h %B %d %e %m %y %Y %j %u %w %Z %z %R %T %D %F %n %t %%."
        ),
        ParameterSpec(
            "seconds", displayName: "Seconds", type: .bool, default: .bool(false),
            summary: "One entry per second instead of per minute."),
    ]

    /// How far ahead one timeline reaches.
    static let horizon: TimeInterval = 3600

    public init() {}

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "--:--")
    }

    public func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        sequence(configuration, context).entry(at: context.now)
    }

    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        Timeline(sequence: sequence(configuration, context), policy: .atEnd)
    }

    /// A rule, not entries: O(1), so the daemon runs it on its loop thread.
    public var answersAtOnce: Bool { true }

    public func immediateTimeline(for configuration: IntentValues, in context: ProviderContext) throws -> Timeline? {
        Timeline(sequence: sequence(configuration, context), policy: .atEnd)
    }

    /// The coming hour as a rule, not as entries: the daemon writes out each entry's text when it is due, so a clock
    /// costs a few hundred bytes to hold and nothing to reload, however many seconds its hour has.
    private func sequence(_ configuration: IntentValues, _ context: ProviderContext) -> TimelineSequence {
        let step = stepSeconds(configuration)
        let start = Self.floor(context.now, to: step)
        // With `seconds: true` the hour runs to its last second, also when a format without seconds steps by minutes.
        let end =
            configuration.bool("seconds") == true
            ? Self.floor(context.now, to: 1).addingTimeInterval(Self.horizon - 1)
            : start.addingTimeInterval(Self.horizon - step)
        return TimelineSequence(
            start: start, step: Int(step), count: Int(end.timeIntervalSince(start) / step) + 1,
            format: configuration.string("format") ?? "%H:%M", timeZone: context.timeZone)
    }

    /// A format that writes seconds on a clock that steps by minutes shows `:00` for the whole minute: valid, and
    /// surely not meant (an i3blocks user's `%T`), so `check` says so at the format.
    public func referenceProblems(in configuration: IntentValues) -> [ReferenceProblem] {
        guard configuration.bool("seconds") != true, TimeFormat(configuration.string("format") ?? "%H:%M").writesSeconds
        else { return [] }
        return [
            ReferenceProblem(
                parameter: "format",
                message: "'format' writes seconds, which stay at 00 while 'seconds' is false; set 'seconds: true' "
                    + "for a clock that ticks every second")
        ]
    }

    private func stepSeconds(_ configuration: IntentValues) -> TimeInterval {
        guard configuration.bool("seconds") == true else { return 60 }
        // A format that writes no seconds changes once a minute: a step of a second would wake the daemon 59 times a
        // minute for nothing (the stored timeline kept one entry per change for the same reason).
        return TimeFormat(configuration.string("format") ?? "%H:%M").writesSeconds ? 1 : 60
    }

    static func floor(_ date: Date, to step: TimeInterval) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / step).rounded(.down) * step)
    }
}
