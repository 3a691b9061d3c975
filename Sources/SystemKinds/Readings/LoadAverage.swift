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
}
