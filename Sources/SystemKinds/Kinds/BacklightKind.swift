import FoundationEssentials
import Kind
import Timelines

/// A screen's brightness from /sys/class/backlight, pushed by the backlight class's uevents (sent for every change
/// made through sysfs, by a key or a tool such as brightnessctl) through the shared `UeventListener`.
///
/// Read only: writing `brightness` needs root or a udev rule granting the file, so scrolling to change it is left to
/// a tool that has the permission (an `on_click:` running brightnessctl).
public struct BacklightKind: PushedKind {
    public let name = "backlight"
    public let displayName = "Backlight"
    public let summary = "The screen's brightness from /sys/class/backlight, pushed by uevents."
    public let families = SampledParameters.families
    public var showsWholeTextWithoutFamily: Bool { true }
    public let parameters = [
        ParameterSpec(
            "device", displayName: "Device", type: .string,
            summary: "a name in /sys/class/backlight (intel_backlight); absent: the first"),
        SampledParameters.format(
            default: Self.defaultFormat, placeholders: "{percentage} {brightness} {max} {device}"),
    ]

    static let defaultFormat = "☀ {percentage}"
    public static let placeholders = ["percentage", "brightness", "max", "device"]
    /// How often a session reads the brightness with no uevent: some laptops' firmware changes it on its own (the
    /// ACPI brightness keys handled by firmware), which the backlight class does not announce.
    public static let safetyInterval: Duration = .seconds(60)

    public static let subsystem = "backlight"

    public let sources: UeventSources
    public init(sources: UeventSources) { self.sources = sources }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "☀ --%")
    }

    public func reading(_ configuration: IntentValues, in context: ProviderContext, at now: Date) -> Timeline {
        let wanted = configuration.string("device")
        let names = sources.files.entries(of: "/sys/class/backlight")
        let content: EntryContent
        if let name = wanted.map({ names.contains($0) ? $0 : nil }) ?? names.first,
            let backlight = read(name)
        {
            let percentage = String(backlight.percentage) + "%"
            let reading = SystemReading(
                values: [
                    "percentage": percentage, "brightness": String(backlight.brightness),
                    "max": String(backlight.maximum), "device": name,
                ],
                level: nil, fraction: Double(backlight.percentage) / 100,
                tooltip: "\(name): \(percentage) (\(backlight.brightness) of \(backlight.maximum))")
            content = reading.content(
                format: PlaceholderFormat(configuration.string("format") ?? Self.defaultFormat),
                thresholds: Thresholds(warning: nil, critical: nil), family: context.family)
        } else {
            let tooltip =
                names.isEmpty
                ? "no backlight in /sys/class/backlight"
                : "no readable backlight named '\(wanted ?? names[0])'; there are: " + names.joined(separator: ", ")
            content = EntryContent(text: "no backlight", tooltip: tooltip, classes: ["absent"])
        }
        return Timeline(entries: [TimelineEntry(date: now, content: content)], policy: .never)
    }

    private func read(_ name: String) -> Backlight? {
        let directory = "/sys/class/backlight/" + name
        guard let actual = sources.files.text(directory + "/actual_brightness"),
            let maximum = sources.files.text(directory + "/max_brightness")
        else { return nil }
        return Backlight(name: name, actualBrightness: actual, maxBrightness: maximum)
    }
}
