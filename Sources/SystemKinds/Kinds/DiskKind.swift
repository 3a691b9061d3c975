import FoundationEssentials
import Kind
import Timelines

/// The space of the file system holding a path, from `statvfs`, as `df` and i3status's `disk` module count it; and,
/// when the format shows `{read}` or `{write}` (only then: it is three more files), the bytes a second its block
/// device read and wrote since the widget's last sample.
public struct DiskKind: IntervalSampledKind {
    public let name = "disk"
    public let displayName = "Disk space"
    public let summary = "Space used and available on a mount point, as df counts it, and its device's I/O rate."
    public let families = SampledParameters.families
    public var showsWholeTextWithoutFamily: Bool { true }
    public let parameters = [
        ParameterSpec(
            "path", displayName: "Path", type: .string, default: .string("/"),
            summary: "a path on the file system to show"),
        SampledParameters.format(
            default: "{avail}", placeholders: "{" + DiskKind.placeholders.joined(separator: "} {") + "}"),
        ParameterSpec(
            "prefix_type", displayName: "Prefixes", type: .enumeration(DiskKind.prefixTypes),
            default: .enumCase("binary"),
            summary: "binary: KiB, GiB (1024); decimal: kB, GB (1000); custom: KB, GB (1024)"),
        SampledParameters.threshold("warning", default: nil, range: 0...100, of: "percentage used"),
        SampledParameters.threshold("critical", default: nil, range: 0...100, of: "percentage used"),
    ]
    public var widgetKeys: [WidgetKeySpec] { [SampledParameters.intervalKey(default: Self.defaultInterval)] }

    public static let placeholders = [
        "total", "used", "free", "avail", "percentage_used", "percentage_free", "percentage_avail",
        "percentage_used_of_avail", "path", "read", "write",
    ]
    static let prefixTypes = ByteFormat.Prefixes.allCases.map { EnumCase($0.rawValue, displayName: $0.rawValue) }
    /// Space changes slowly, and `statvfs` of a network file system is a round trip.
    public static let defaultInterval: TimeInterval = 30

    /// `statvfs` of a hung network mount blocks, and must not block the daemon's loop.
    public static let readsOnTheLoop = false

    let files: SystemFiles
    let previous = PreviousSamples<DiskTraffic>()

    public init(files: SystemFiles) { self.files = files }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "-- GiB")
    }

    /// A path that is not there is the widget's state, not an error to retry with back-off: a USB stick comes and goes.
    public func sample(_ configuration: IntentValues, in context: ProviderContext, keepsSample: Bool) -> Timeline {
        let path = configuration.string("path") ?? "/"
        let content: EntryContent
        switch files.fileSystem(at: path) {
        case .success(let blocks):
            let prefixes = ByteFormat.Prefixes(rawValue: configuration.enumCase("prefix_type") ?? "") ?? .binary
            let format = PlaceholderFormat(configuration.string("format") ?? "{avail}")
            let showsTraffic = !Set(format.placeholders).isDisjoint(with: ["read", "write"])
            var rates: (read: Double, write: Double)?
            if showsTraffic, let traffic = traffic(at: path) {
                let earlier =
                    keepsSample ? previous.exchange(traffic, for: context.instance) : previous.peek(context.instance)
                rates = traffic.rates(since: earlier)
            }
            content = Self.reading(DiskSpace(blocks), path: path, sizes: ByteFormat(prefixes: prefixes), rates: rates)
                .content(
                    format: format,
                    thresholds: SampledParameters.thresholds(configuration), family: context.family)
        case .failure(let error):
            content = EntryContent(
                text: "\(path): not mounted", tooltip: "\(path): \(error.message)", classes: ["absent"])
        }
        return SampledParameters.timeline(content, in: context, interval: Self.defaultInterval)
    }

    /// The block device's counters under `path`, or nil when it has none (tmpfs, NFS) or they cannot be read.
    func traffic(at path: String) -> DiskTraffic? {
        guard let mountinfo = files.text("/proc/self/mountinfo"),
            let device = DiskTraffic.device(holding: path, mountinfo: mountinfo),
            let stat = files.text("/sys/dev/block/\(device)/stat"),
            let uptime = files.text("/proc/uptime").flatMap(Uptime.init(procUptime:))
        else { return nil }
        return DiskTraffic(blockStat: stat, uptime: uptime.seconds)
    }

    /// `rates`: bytes a second read and written, nil when not asked for or not known (`?`).
    static func reading(
        _ space: DiskSpace, path: String, sizes: ByteFormat, rates: (read: Double, write: Double)? = nil
    ) -> SystemReading {
        let values = [
            "total": sizes.format(space.total), "used": sizes.format(space.used), "free": sizes.format(space.free),
            "avail": sizes.format(space.available),
            "percentage_used": ByteFormat.percent(space.percentage(space.used)),
            "percentage_free": ByteFormat.percent(space.percentage(space.free)),
            "percentage_avail": ByteFormat.percent(space.percentage(space.available)),
            "percentage_used_of_avail": ByteFormat.percent(space.percentage(space.usedOfAvailable)),
            "path": path, "read": rates.map { sizes.format(saturating($0.read)) + "/s" } ?? "?",
            "write": rates.map { sizes.format(saturating($0.write)) + "/s" } ?? "?",
        ]
        let used = space.percentage(space.used)
        return SystemReading(
            values: values, level: used, fraction: used / 100,
            tooltip: "\(path): \(values["used"]!) of \(values["total"]!) used, \(values["avail"]!) available")
    }
}
