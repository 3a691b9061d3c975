import Foundation
import Scheduler

/// The time, as a precomputed timeline: one entry per minute (or second) for the coming hour.
///
/// WidgetKit's model at its plainest: the provider runs once an hour, and the daemon swaps the entries in
/// at their dates without running anything in between.
public struct ClockKind: WidgetKind {
    public let name = "clock"
    public let displayName = "Clock"
    public let summary = "The time, precomputed for the coming hour; costs nothing between timelines."
    public let families: [Family] = [.accessoryInline, .accessoryCircular, .systemSmall, .systemMedium]
    public let parameters = [
        ParameterSpec(
            "format", displayName: "Format", type: .format(conversions: String(Strftime.conversions)),
            default: .string("%H:%M"),
            summary: "strftime-style: %H %M %S %I %p %a %A %b %B %d %e %m %y %Y %j %Z %z %R %T %D %F %%."),
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
        let step = stepSeconds(configuration)
        let start = Self.floor(context.now, to: step)
        let formatter = Strftime(format: configuration.string("format") ?? "%H:%M")
        let fields = Strftime.fields(of: start, in: context.timeZone, calendar: Self.calendar)
        return TimelineEntry(date: start, content: EntryContent(text: formatter.string(from: fields)))
    }

    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        let step = stepSeconds(configuration)
        let formatter = Strftime(format: configuration.string("format") ?? "%H:%M")
        let start = Self.floor(context.now, to: step)
        let count = Int(Self.horizon / step)
        var entries: [TimelineEntry] = []
        entries.reserveCapacity(count)
        var minuteFields: Strftime.Fields?
        var previous: String?
        for index in 0..<count {
            let date = start.addingTimeInterval(step * Double(index))
            // Calendar work once per minute; within a minute only the seconds change (zone offsets change
            // on whole minutes, so this stays exact across DST).
            let second = Int(date.timeIntervalSince1970.rounded(.down)) % 60
            if minuteFields == nil || second == 0 || step >= 60 {
                minuteFields = Strftime.fields(of: date, in: context.timeZone, calendar: Self.calendar)
            }
            guard var fields = minuteFields else { continue }
            fields.second = second
            let text = formatter.string(from: fields)
            // A format without seconds gives the same text for a minute: keep one entry per change.
            if text == previous { continue }
            previous = text
            entries.append(TimelineEntry(date: date, content: EntryContent(text: text)))
        }
        return Timeline(entries: entries, policy: .atEnd)
    }

    private func stepSeconds(_ configuration: IntentValues) -> TimeInterval {
        configuration.bool("seconds") == true ? 1 : 60
    }

    private static let calendar = Calendar(identifier: .gregorian)

    static func floor(_ date: Date, to step: TimeInterval) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / step).rounded(.down) * step)
    }
}
