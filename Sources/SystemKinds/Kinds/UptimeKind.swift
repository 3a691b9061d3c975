import FoundationEssentials
import Kind
import Timelines

/// Time since boot, as a timeline: an entry at each minute the uptime reaches for the coming hour, so the daemon
/// swaps them in without reading /proc/uptime more than once an hour.
public struct UptimeKind: SampledKind {
    public let name = "uptime"
    public let displayName = "Uptime"
    public let summary = "Time since boot, from /proc/uptime, precomputed minute by minute for the coming hour."
    public let families = SampledParameters.families
    public var showsWholeTextWithoutFamily: Bool { true }
    public let parameters = [
        SampledParameters.format(default: "up {uptime}", placeholders: "{uptime} (3d 4h 12m) {days} {hours} {minutes}")
    ]

    public static let placeholders = ["uptime", "days", "hours", "minutes"]
    /// How many minutes one timeline reaches; then the policy `.atEnd` reads /proc/uptime again, which also puts a
    /// suspend (the uptime does not count it) right.
    static let horizonMinutes = 60

    /// One small file read and sixty short texts.
    public static let readsOnTheLoop = true

    let files: SystemFiles
    public init(files: SystemFiles) { self.files = files }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "up --")
    }

    public func sample(_ configuration: IntentValues, in context: ProviderContext, keepsSample: Bool) throws -> Timeline
    {
        guard let text = files.text("/proc/uptime"), let uptime = Uptime(procUptime: text) else {
            throw IntentError("cannot read \(files.root)/proc/uptime")
        }
        return Self.timeline(
            uptime, at: context.now, format: PlaceholderFormat(configuration.string("format") ?? "up {uptime}"))
    }

    /// The entry for now, then one at each minute boundary of the uptime (boot + k minutes) for the coming hour.
    static func timeline(_ uptime: Uptime, at now: Date, format: PlaceholderFormat) -> Timeline {
        func content(_ uptime: Uptime) -> EntryContent {
            let values = [
                "uptime": uptime.text, "days": String(uptime.days), "hours": String(uptime.hours),
                "minutes": String(uptime.minutes),
            ]
            return EntryContent(text: format.render(values), tooltip: "Up \(uptime.text)")
        }
        let boot = now.addingTimeInterval(-uptime.seconds)
        let nextMinute = (uptime.seconds / 60).rounded(.down) + 1
        var entries = [TimelineEntry(date: now, content: content(uptime))]
        for minute in 0..<horizonMinutes {
            let seconds = (nextMinute + Double(minute)) * 60
            entries.append(
                TimelineEntry(date: boot.addingTimeInterval(seconds), content: content(Uptime(seconds: seconds))))
        }
        return Timeline(entries: entries, policy: .atEnd)
    }
}
