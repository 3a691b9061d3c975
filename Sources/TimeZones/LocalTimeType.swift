/// What a zone says about one instant: its offset from UTC, whether it is daylight saving time, and its
/// abbreviation (`CET`, `EST`, `+03`), as the zoneinfo files name it.
public struct LocalTimeType: Sendable, Hashable {
    /// Seconds east of UTC.
    public var utcOffset: Int
    public var isDST: Bool
    public var abbreviation: String

    public init(utcOffset: Int, isDST: Bool, abbreviation: String) {
        self.utcOffset = utcOffset
        self.isDST = isDST
        self.abbreviation = abbreviation
    }
}
