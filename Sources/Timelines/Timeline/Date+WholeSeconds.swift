import FoundationEssentials
import TimeZones

extension Date {
    /// Whole seconds since 1970, rounded down, as `Zone` and `TimeFormat` take instants: clamped into
    /// `Zone.supportedInstants` (about ±1.1 billion years), so that no date a script or a damaged store gives (±infinity,
    /// 1e300) can trap the conversion to `Int`; NaN reads as 1970.
    public var wholeSecondsSince1970: Int {
        let seconds = timeIntervalSince1970.rounded(.down)
        let range = Zone.supportedInstants
        guard !seconds.isNaN else { return 0 }
        if seconds <= Double(range.lowerBound) { return range.lowerBound }
        if seconds >= Double(range.upperBound) { return range.upperBound }
        return Int(seconds)
    }
}
