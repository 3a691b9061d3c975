import FoundationEssentials
import Kind
import Timelines

/// The hottest temperature sensor, or a named one, from the thermal zones and hwmon inputs in /sys.
///
/// A machine with no sensor (a virtual machine, a container) shows "no sensor" as the widget's state: not an error,
/// which would be retried with back-off and logged at every try.
public struct TemperatureKind: IntervalSampledKind {
    public let name = "temperature"
    public let displayName = "Temperature"
    public let summary = "The hottest (or a named) sensor of /sys/class/thermal and /sys/class/hwmon."
    public let families = SampledParameters.families
    public var showsWholeTextWithoutFamily: Bool { true }
    public let parameters = [
        ParameterSpec(
            "sensor", displayName: "Sensor", type: .string,
            summary: "a thermal zone's type (x86_pkg_temp), an hwmon chip's name (coretemp), an input's label "
                + "(Package id 0) or name/label; absent: the hottest"),
        SampledParameters.format(default: "{degrees}°C", placeholders: "{degrees} {sensor}"),
        SampledParameters.threshold("warning", default: nil, range: -50...200, of: "temperature (°C)"),
        SampledParameters.threshold("critical", default: 75, range: -50...200, of: "temperature (°C)"),
    ]
    public var widgetKeys: [WidgetKeySpec] { [SampledParameters.intervalKey(default: Self.defaultInterval)] }

    public static let placeholders = ["degrees", "sensor"]
    public static let defaultInterval: TimeInterval = 5
    /// The gauge is full at this many degrees when no `critical:` is set.
    static let gaugeCeiling: Double = 100

    /// Some hwmon drivers read their chip over a slow bus when the file is read.
    public static let readsOnTheLoop = false

    let files: SystemFiles
    public init(files: SystemFiles) { self.files = files }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "--°C")
    }

    public func sample(_ configuration: IntentValues, in context: ProviderContext, keepsSample: Bool) -> Timeline {
        let wanted = configuration.string("sensor")
        let sensors = Self.sensors(in: files)
        let content: EntryContent
        if let sensor = TemperatureSensor.chosen(from: sensors, named: wanted) {
            let thresholds = SampledParameters.thresholds(configuration)
            content = Self.reading(sensor, ceiling: thresholds.critical ?? Self.gaugeCeiling).content(
                format: PlaceholderFormat(configuration.string("format") ?? "{degrees}°C"), thresholds: thresholds,
                family: context.family)
        } else {
            content = Self.absent(named: wanted, among: sensors)
        }
        return SampledParameters.timeline(content, in: context, interval: Self.defaultInterval)
    }

    /// "no sensor", with the reason and the sensors there are in the tooltip.
    static func absent(named wanted: String?, among sensors: [TemperatureSensor]) -> EntryContent {
        let tooltip =
            sensors.isEmpty
            ? "no temperature sensor in /sys/class/thermal or /sys/class/hwmon"
            : "no sensor named '\(wanted ?? "")'; there are: "
                + sensors.map { $0.names.joined(separator: ", ") }.joined(separator: "; ")
        return EntryContent(text: "no sensor", tooltip: tooltip, classes: ["absent"])
    }

    /// Whole degrees, cut as i3status cuts the millidegrees it reads (77.5 °C is 77): the same sensor reads the same in
    /// both. The tooltip keeps the tenth.
    static func reading(_ sensor: TemperatureSensor, ceiling: Double) -> SystemReading {
        let degrees = String(Int(sensor.celsius.rounded(.towardZero)))
        return SystemReading(
            values: ["degrees": degrees, "sensor": sensor.displayName], level: sensor.celsius,
            fraction: ceiling > 0 ? sensor.celsius / ceiling : nil,
            tooltip: "\(sensor.displayName): \(ByteFormat.fixed(sensor.celsius, decimals: 1)) °C")
    }

    /// Every sensor the tree has: each thermal zone, and each `tempN_input` of each hwmon chip.
    static func sensors(in files: SystemFiles) -> [TemperatureSensor] {
        func line(_ path: String) -> String? {
            files.text(path).flatMap { $0.split(separator: "\n").first.map(String.init) }
        }
        var sensors: [TemperatureSensor] = []
        for zone in files.entries(of: "/sys/class/thermal") where zone.hasPrefix("thermal_zone") {
            let directory = "/sys/class/thermal/" + zone
            guard let celsius = files.text(directory + "/temp").flatMap(TemperatureSensor.celsius(fromMillidegrees:))
            else { continue }
            sensors.append(
                TemperatureSensor(names: [line(directory + "/type")].compactMap(\.self) + [zone], celsius: celsius))
        }
        for chip in files.entries(of: "/sys/class/hwmon") {
            let directory = "/sys/class/hwmon/" + chip
            let chipName = line(directory + "/name") ?? chip
            for input in files.entries(of: directory) where input.hasPrefix("temp") && input.hasSuffix("_input") {
                guard
                    let celsius = files.text(directory + "/" + input).flatMap(
                        TemperatureSensor.celsius(fromMillidegrees:))
                else { continue }
                var names = [chipName]
                if let label = line(directory + "/" + input.dropLast("_input".count) + "_label") {
                    names = [label, chipName, chipName + "/" + label]
                }
                sensors.append(TemperatureSensor(names: names, celsius: celsius))
            }
        }
        return sensors
    }
}
