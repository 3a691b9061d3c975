import Timelines

/// `warning:` and `critical:`: the value at which a widget turns yellow, and red and urgent.
public struct Thresholds: Sendable, Hashable {
    public var warning: Double?
    public var critical: Double?

    public init(warning: Double?, critical: Double?) {
        self.warning = warning
        self.critical = critical
    }

    /// Where a value stands, its threshold counted as reached (i3status colours above its thresholds; `>=` lets a
    /// threshold of 100 % mean "full").
    public enum Level: String, Sendable, Hashable {
        case normal
        case warning
        case critical
    }

    public func level(of value: Double) -> Level {
        if let critical, value >= critical { return .critical }
        if let warning, value >= warning { return .warning }
        return .normal
    }

    /// i3status's `color_degraded` and `color_bad`; both read on i3bar's black (contrast 19 and 5.3).
    public static let warningColor = Color(red: 0xFF, green: 0xFF, blue: 0x00)
    public static let criticalColor = Color(red: 0xFF, green: 0x00, blue: 0x00)
}
