import FoundationEssentials
import Kind
import Timelines

/// CPU usage, overall and per core, from the difference between this sample of /proc/stat and the instance's last;
/// the cores' mean frequency when the format shows `{frequency}` (and only then: it is a file per core).
///
/// An instance's first sample (start-up, a new widget) does not wait for a second: it shows usage since boot, as
/// i3status's first line does, and the next sample, an interval later, shows the interval's.
public struct CPUKind: IntervalSampledKind {
    public let name = "cpu"
    public let displayName = "CPU usage"
    public let summary = "CPU usage overall and per core from /proc/stat, and frequency, sampled at its interval."
    public let families = SampledParameters.families
    public var showsWholeTextWithoutFamily: Bool { true }
    public let parameters = [
        SampledParameters.format(
            default: "{usage}", placeholders: "{usage}, {cpu0}, {cpu1}… (each core) and {frequency} (the cores' mean)"),
        SampledParameters.threshold("warning", default: 90, range: 0...100, of: "usage (%)"),
        SampledParameters.threshold("critical", default: 95, range: 0...100, of: "usage (%)"),
    ]
    public var widgetKeys: [WidgetKeySpec] { [SampledParameters.intervalKey(default: Self.defaultInterval)] }

    public static let defaultInterval: TimeInterval = 5

    public static let placeholders = ["usage", "frequency"]
    /// One small file read.
    public static let readsOnTheLoop = true

    let files: SystemFiles
    /// Each instance's last sample, with the usage it showed.
    let previous = PreviousSamples<(times: CPUTimes, usage: CPUUsage)>()

    public init(files: SystemFiles) { self.files = files }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "--%")
    }

    /// `{cpu0}`, `{cpu1}` … follow the machine's cores, so any `cpuN` is known.
    public func referenceProblems(in configuration: IntentValues) -> [ReferenceProblem] {
        SampledParameters.unknownPlaceholders(
            in: configuration, known: Self.isPlaceholder, list: "usage, frequency, cpu0, cpu1…")
    }

    static func isPlaceholder(_ name: String) -> Bool {
        name == "usage" || name == "frequency"
            || (name.hasPrefix("cpu") && name.count > 3 && name.dropFirst(3).allSatisfy(\.isASCII)
                && Int(name.dropFirst(3)) != nil)
    }

    public func sample(_ configuration: IntentValues, in context: ProviderContext, keepsSample: Bool) throws
        -> Timeline
    {
        guard let bytes = files.bytes("/proc/stat"), let times = CPUTimes(procStat: ProcFields(bytes)) else {
            throw IntentError("cannot read CPU times from \(files.root)/proc/stat")
        }
        let earlier = previous.peek(context.instance)
        let usage: CPUUsage
        if let earlier, times.overall.total <= earlier.times.overall.total {
            // No tick since the last sample (two samples within one, or a counter that went back): that sample's
            // usage still holds, and it stays the base, rather than usage since boot.
            usage = earlier.usage
        } else {
            usage = CPUUsage(from: earlier?.times, to: times)
            if keepsSample { _ = previous.exchange((times, usage), for: context.instance) }
        }
        let format = PlaceholderFormat(configuration.string("format") ?? "{usage}")
        let frequency =
            format.placeholders.contains("frequency") ? CPUFrequency.averageMegahertz(in: files) : nil
        let reading = Self.reading(usage, megahertz: frequency)
        let content = reading.content(
            format: format,
            thresholds: SampledParameters.thresholds(configuration), family: context.family)
        return SampledParameters.timeline(content, in: context, interval: Self.defaultInterval)
    }

    /// i3status writes usage as two digits and `%` (`07%`); so does this, whole percent rounded. Without `megahertz`
    /// (not asked for, or no source), `{frequency}` is `?`.
    static func reading(_ usage: CPUUsage, megahertz: Double? = nil) -> SystemReading {
        func percent(_ value: Double) -> String {
            let whole = Int(value.rounded())
            return (whole < 10 ? "0" : "") + String(whole) + "%"
        }
        var values = [
            "usage": percent(usage.overall), "frequency": megahertz.map { CPUFrequency.text(megahertz: $0) } ?? "?",
        ]
        for (index, core) in usage.cores.enumerated() {
            if let core { values["cpu\(index)"] = percent(core) }
        }
        let cores = usage.cores.enumerated().compactMap { index, core in core.map { "cpu\(index) \(percent($0))" } }
        return SystemReading(
            values: values, level: usage.overall, fraction: usage.overall / 100,
            tooltip: (["CPU \(percent(usage.overall))"] + (megahertz.map { [CPUFrequency.text(megahertz: $0)] } ?? [])
                + cores).joined(separator: " · "))
    }
}
