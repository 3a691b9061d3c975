import FoundationEssentials
import Kind
import Timelines

/// Memory and swap use from /proc/meminfo, counted as i3status's `memory` module and `free` count them.
public struct MemoryKind: IntervalSampledKind {
    public let name = "memory"
    public let displayName = "Memory"
    public let summary = "Memory and swap in use, from /proc/meminfo, as free and i3status count them."
    public let families = SampledParameters.families
    public var showsWholeTextWithoutFamily: Bool { true }
    public let parameters = [
        SampledParameters.format(
            default: "{used} / {total}",
            placeholders: "{" + MemoryKind.placeholders.joined(separator: "} {") + "}"),
        ParameterSpec(
            "used_method", displayName: "Used memory", type: .enumeration(MemoryKind.usedMethods),
            default: .enumCase("memavailable"), summary: "how {used} is counted (i3status's memory_used_method)"),
        ParameterSpec(
            "unit", displayName: "Unit", type: .enumeration(MemoryKind.units), default: .enumCase("auto"),
            summary: "the unit of every size; auto: the largest each reaches"),
        ParameterSpec(
            "decimals", displayName: "Decimals", type: .int(0...3), default: .int(1),
            summary: "digits after the point of every size"),
        SampledParameters.threshold("warning", default: nil, range: 0...100, of: "percentage of memory used"),
        SampledParameters.threshold("critical", default: nil, range: 0...100, of: "percentage of memory used"),
    ]
    public var widgetKeys: [WidgetKeySpec] { [SampledParameters.intervalKey(default: Self.defaultInterval)] }

    public static let placeholders = [
        "used", "free", "available", "total", "shared", "buffers", "cached", "percentage_used", "percentage_free",
        "percentage_available", "percentage_shared", "swap_used", "swap_free", "swap_total", "percentage_swap_used",
        "percentage_swap_free",
    ]
    static let usedMethods = [
        EnumCase("memavailable", displayName: "Total − available (free, i3status)"),
        EnumCase("classical", displayName: "Total − free − buffers − cache"),
    ]
    static let units = ["auto", "Ki", "Mi", "Gi", "Ti"].map {
        EnumCase($0, displayName: $0 == "auto" ? "Auto" : $0 + "B")
    }
    public static let defaultInterval: TimeInterval = 5

    /// One small file read.
    public static let readsOnTheLoop = true

    let files: SystemFiles
    public init(files: SystemFiles) { self.files = files }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "-- / --")
    }

    public func sample(_ configuration: IntentValues, in context: ProviderContext, keepsSample: Bool) throws -> Timeline
    {
        guard let bytes = files.bytes("/proc/meminfo"), let memory = MemoryInfo(procMeminfo: ProcFields(bytes)) else {
            throw IntentError("cannot read \(files.root)/proc/meminfo")
        }
        let format = PlaceholderFormat(configuration.string("format") ?? "{used} / {total}")
        let reading = Self.reading(
            memory, used: MemoryInfo.UsedMethod(rawValue: configuration.enumCase("used_method") ?? "") ?? .memavailable,
            sizes: ByteFormat(
                unit: configuration.enumCase("unit").flatMap { $0 == "auto" ? nil : $0 },
                decimals: configuration.int("decimals") ?? 1),
            shown: format.placeholders)
        let content = reading.content(
            format: format, thresholds: SampledParameters.thresholds(configuration), family: context.family)
        return SampledParameters.timeline(content, in: context, interval: Self.defaultInterval)
    }

    /// The reading, with the values of the placeholders in `shown` and the tooltip's: a sample writes out only what it
    /// shows.
    static func reading(
        _ memory: MemoryInfo, used method: MemoryInfo.UsedMethod, sizes: ByteFormat, shown: [String]
    ) -> SystemReading {
        let used = memory.used(method)
        func share(_ part: UInt64, of whole: UInt64) -> Double { whole == 0 ? 0 : 100 * Double(part) / Double(whole) }
        func value(of name: String) -> String? {
            switch name {
            case "used": sizes.format(used)
            case "free": sizes.format(memory.free)
            case "available": sizes.format(memory.available)
            case "total": sizes.format(memory.total)
            case "shared": sizes.format(memory.shared)
            case "buffers": sizes.format(memory.buffers)
            case "cached": sizes.format(memory.cached)
            case "percentage_used": ByteFormat.percent(share(used, of: memory.total))
            case "percentage_free": ByteFormat.percent(share(memory.free, of: memory.total))
            case "percentage_available": ByteFormat.percent(share(memory.available, of: memory.total))
            case "percentage_shared": ByteFormat.percent(share(memory.shared, of: memory.total))
            case "swap_used": sizes.format(memory.swapUsed)
            case "swap_free": sizes.format(memory.swapFree)
            case "swap_total": sizes.format(memory.swapTotal)
            case "percentage_swap_used": ByteFormat.percent(share(memory.swapUsed, of: memory.swapTotal))
            case "percentage_swap_free": ByteFormat.percent(share(memory.swapFree, of: memory.swapTotal))
            default: nil
            }
        }
        let inTooltip = ["used", "total", "available"] + (memory.swapTotal > 0 ? ["swap_used", "swap_total"] : [])
        var values: [String: String] = [:]
        for name in shown + inTooltip where values[name] == nil {
            values[name] = value(of: name)
        }
        let percentageUsed = share(used, of: memory.total)
        var tooltip = "Memory \(values["used"]!) of \(values["total"]!) used, \(values["available"]!) available"
        if memory.swapTotal > 0 { tooltip += " · swap \(values["swap_used"]!) of \(values["swap_total"]!)" }
        return SystemReading(values: values, level: percentageUsed, fraction: percentageUsed / 100, tooltip: tooltip)
    }
}
