import FoundationEssentials
import Kind
import Timelines

/// The battery, or all batteries combined by energy, from /sys/class/power_supply: pushed, not polled. A session
/// per widget listens on the process's one uevent socket (`UeventListener`) and reads the batteries again when the
/// kernel announces a `power_supply` change; between uevents its timeline counts the remaining time down.
///
/// A machine with no battery shows "no battery", a state: nothing is logged and nothing retried.
public struct BatteryKind: PushedKind {
    public let name = "battery"
    public let displayName = "Battery"
    public let summary = "Level, state and time left of the batteries in /sys/class/power_supply, pushed by uevents."
    public let families = SampledParameters.families
    public var showsWholeTextWithoutFamily: Bool { true }
    public let parameters = [
        ParameterSpec(
            "battery", displayName: "Battery", type: .string,
            summary: "one battery by its name in /sys/class/power_supply (BAT0); absent: all, combined by energy"),
        SampledParameters.format(
            default: Self.defaultFormat,
            placeholders: "{percentage} {status} (CHR, BAT, FULL, IDLE, UNK) {state} {remaining} {emptytime} "
                + "{consumption}"),
        ParameterSpec(
            "format_down", displayName: "Format with no battery", type: .string, default: .string("no battery"),
            summary: "the text when there is no battery (or none by the name `battery` gives)"),
        ParameterSpec(
            "warning", displayName: "Warning", type: .int(0...100), default: .int(20),
            summary:
                "at or below this percentage, while not charging or full, the text is yellow (waybar class warning)"),
        ParameterSpec(
            "critical", displayName: "Critical", type: .int(0...100), default: .int(10),
            summary: "at or below this percentage, while not charging or full: red and urgent (class critical)"),
    ]

    static let defaultFormat = "{status} {percentage} {remaining}"
    public static let placeholders = ["percentage", "status", "state", "remaining", "emptytime", "consumption"]
    /// How often a session reads the batteries with no uevent: some firmware announces no change of level, only of
    /// state, so the level would stand still for hours without it.
    public static let safetyInterval: Duration = .seconds(180)

    public static let subsystem = "power_supply"

    public let sources: UeventSources
    public init(sources: UeventSources) { self.sources = sources }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "BAT --%")
    }

    public func reading(_ configuration: IntentValues, in context: ProviderContext, at now: Date) -> Timeline {
        let wanted = configuration.string("battery")
        let batteries = Self.batteries(in: sources.files)
        let chosen = wanted.map { name in batteries.filter { $0.name == name } } ?? batteries
        guard let battery = Battery.combined(chosen) else {
            return Timeline(
                entries: [
                    TimelineEntry(
                        date: now,
                        content: Self.absent(
                            named: wanted, among: batteries, text: configuration.string("format_down") ?? "no battery"))
                ],
                policy: .never)
        }
        let presentation = BatteryTimeline(
            format: PlaceholderFormat(configuration.string("format") ?? Self.defaultFormat),
            warning: configuration.int("warning").map(Double.init),
            critical: configuration.int("critical").map(Double.init), family: context.family,
            timeZone: context.timeZone)
        return presentation.timeline(battery, at: now)
    }

    /// `format_down` ("no battery"), with the reason (and the batteries there are) in the tooltip.
    static func absent(named wanted: String?, among batteries: [Battery], text: String) -> EntryContent {
        let tooltip =
            batteries.isEmpty
            ? "no battery in /sys/class/power_supply"
            : "no battery named '\(wanted ?? "")'; there are: " + batteries.map(\.name).joined(separator: ", ")
        return EntryContent(text: text, tooltip: tooltip, classes: ["absent"])
    }

    /// Every system battery under /sys/class/power_supply, each from its `uevent` file.
    static func batteries(in files: SystemFiles) -> [Battery] {
        files.entries(of: "/sys/class/power_supply").compactMap { name in
            files.text("/sys/class/power_supply/\(name)/uevent").flatMap {
                Battery(name: name, properties: UeventMessage.properties(ofUeventFile: $0))
            }
        }
    }
}
