import FoundationEssentials
import Kind
import Timelines

/// The load averages of /proc/loadavg.
public struct LoadKind: IntervalSampledKind {
    public let name = "load"
    public let displayName = "Load average"
    public let summary = "The load averages over 1, 5 and 15 minutes, from /proc/loadavg."
    public let families = SampledParameters.families
    public var showsWholeTextWithoutFamily: Bool { true }
    public let parameters = [
        SampledParameters.format(default: "{1min}", placeholders: "{1min} {5min} {15min}"),
        ParameterSpec(
            "warning", displayName: "Warning", type: .string, default: .string("5"),
            summary: "from this 1-minute load on (a number such as 2.5), the text is yellow (waybar class warning)"),
        ParameterSpec(
            "critical", displayName: "Critical", type: .string,
            summary: "from this 1-minute load on, the text is red and urgent (waybar class critical)"),
    ]
    public var widgetKeys: [WidgetKeySpec] { [SampledParameters.intervalKey(default: Self.defaultInterval)] }

    public static let placeholders = ["1min", "5min", "15min"]
    public static let defaultInterval: TimeInterval = 5

    /// Two small file reads.
    public static let readsOnTheLoop = true

    let files: SystemFiles
    public init(files: SystemFiles) { self.files = files }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "-.--")
    }

    /// Load thresholds are decimals (`0.5`), which the config's int type cannot hold: a string, checked here.
    public func referenceProblems(in configuration: IntentValues) -> [ReferenceProblem] {
        let thresholds = ["warning", "critical"].compactMap { name in
            configuration.string(name).flatMap { Double($0) == nil ? name : nil }.map {
                ReferenceProblem(
                    parameter: $0, message: "'\($0)' is not a number; the widget shows an error until it is one")
            }
        }
        return thresholds + placeholderProblems(in: configuration)
    }

    public func sample(_ configuration: IntentValues, in context: ProviderContext, keepsSample: Bool) throws -> Timeline
    {
        guard let text = files.text("/proc/loadavg"), let load = LoadAverage(procLoadavg: text) else {
            throw IntentError("cannot read \(files.root)/proc/loadavg")
        }
        func threshold(_ name: String) throws -> Double? {
            guard let text = configuration.string(name) else { return nil }
            guard let value = Double(text) else { throw IntentError("'\(name)' is not a number: '\(text)'") }
            return value
        }
        // The gauge is the load per core, full at one waiting process per core; without the list of cores, per one.
        // The list, not /proc/stat's lines: the kernel writes every interrupt's count into /proc/stat at each read.
        let cores = files.text("/sys/devices/system/cpu/online").flatMap(LoadAverage.onlineCores) ?? 1
        let content = Self.reading(load, cores: cores).content(
            format: PlaceholderFormat(configuration.string("format") ?? "{1min}"),
            thresholds: Thresholds(warning: try threshold("warning"), critical: try threshold("critical")),
            family: context.family)
        return SampledParameters.timeline(content, in: context, interval: Self.defaultInterval)
    }

    /// i3status writes each load with two decimals (`0.52`).
    static func reading(_ load: LoadAverage, cores: Int) -> SystemReading {
        let values = [
            "1min": ByteFormat.fixed(load.oneMinute, decimals: 2),
            "5min": ByteFormat.fixed(load.fiveMinutes, decimals: 2),
            "15min": ByteFormat.fixed(load.fifteenMinutes, decimals: 2),
        ]
        return SystemReading(
            values: values, level: load.oneMinute, fraction: load.oneMinute / Double(max(cores, 1)),
            tooltip: "Load \(values["1min"]!) \(values["5min"]!) \(values["15min"]!) (1, 5, 15 min)")
    }
}
