/// The load averages of /proc/loadavg: processes running or waiting to run, over 1, 5 and 15 minutes.
public struct LoadAverage: Sendable, Hashable {
    public var oneMinute: Double
    public var fiveMinutes: Double
    public var fifteenMinutes: Double

    public init(oneMinute: Double, fiveMinutes: Double, fifteenMinutes: Double) {
        self.oneMinute = oneMinute
        self.fiveMinutes = fiveMinutes
        self.fifteenMinutes = fifteenMinutes
    }

    /// Reads `0.52 0.58 0.59 1/467 12345`; nil when the first three fields are not numbers.
    public init?(procLoadavg text: String) {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).prefix(3).compactMap { Double($0) }
        guard fields.count == 3 else { return nil }
        self.init(oneMinute: fields[0], fiveMinutes: fields[1], fifteenMinutes: fields[2])
    }

    /// The number of CPUs /sys/devices/system/cpu/online lists (`0-3,6,8-9`: seven); nil for anything else.
    public static func onlineCores(_ text: String) -> Int? {
        var count = 0
        for range in text.split(whereSeparator: { $0 == "," || $0 == "\n" }) {
            let ends = range.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            switch ends.count {
            case 1 where ends[0] != nil: count += 1
            case 2:
                guard let first = ends[0], let last = ends[1], first <= last else { return nil }
                count += last - first + 1
            default: return nil
            }
        }
        return count > 0 ? count : nil
    }
}
