import FoundationEssentials

/// Time since boot, from the first field of /proc/uptime (seconds, with hundredths).
public struct Uptime: Sendable, Hashable {
    public var seconds: Double

    public init(seconds: Double) {
        self.seconds = seconds
    }

    /// Reads `12345.67 54321.00`; nil when the first field is no number.
    public init?(procUptime text: String) {
        guard let first = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).first, let seconds = Double(first)
        else { return nil }
        self.init(seconds: seconds)
    }

    public var days: Int { Int(seconds) / 86_400 }
    public var hours: Int { Int(seconds) / 3600 % 24 }
    public var minutes: Int { Int(seconds) / 60 % 60 }

    /// `3d 4h 12m`, `4h 12m`, `12m`: the largest unit first, down to minutes.
    public var text: String {
        if days > 0 { return "\(days)d \(hours)h \(minutes)m" }
        if hours > 0 { return "\(hours)h \(minutes)m" }
        return "\(minutes)m"
    }
}
