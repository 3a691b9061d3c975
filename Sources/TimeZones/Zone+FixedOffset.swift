extension Zone {
    /// A zone at a fixed offset from UTC with no daylight saving time. Its abbreviation is the offset as tzdata
    /// names such zones (`+0530`, `-04`, `UTC` for zero); so is its identifier unless one is given.
    public init(fixedOffset seconds: Int, identifier: String? = nil) {
        let seconds = max(min(seconds, 26 * 3600), -26 * 3600)
        let minutes = abs(seconds) / 60
        var name = seconds == 0 ? "UTC" : (seconds < 0 ? "-" : "+") + Self.twoDigits(minutes / 60)
        if seconds != 0, minutes % 60 != 0 { name += Self.twoDigits(minutes % 60) }
        self.init(
            identifier: identifier ?? name,
            rule: PosixTZRule(
                standard: LocalTimeType(utcOffset: seconds, isDST: false, abbreviation: name), daylight: nil)
        )
    }

    /// A fixed offset named as ICU's custom time zone ids are, which Foundation's `TimeZone(identifier:)` took and
    /// so `timezone:` did before widgetd read zoneinfo itself: `GMT` or `UTC`, a sign (`+` is east of Greenwich,
    /// the opposite of tzdata's `Etc/GMT+5`), and hours, optionally with minutes: `GMT+5`, `UTC-03:30`,
    /// `GMT+0530`. Nil for anything else.
    static func fixedOffset(named identifier: String) -> Zone? {
        let bytes = Array(identifier.utf8)
        guard bytes.count >= 5, bytes.starts(with: Array("GMT".utf8)) || bytes.starts(with: Array("UTC".utf8))
        else { return nil }
        let sign: Int
        switch bytes[3] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        let pieces = bytes[4...].split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        let digits = pieces.map { $0.compactMap { $0 >= 0x30 && $0 <= 0x39 ? Int($0 - 0x30) : nil } }
        guard zip(pieces, digits).allSatisfy({ $0.count == $1.count && !$1.isEmpty }) else { return nil }
        let number = { (values: [Int]) in values.reduce(0) { $0 * 10 + $1 } }
        let hours: Int
        var minutes = 0
        switch (digits.count, digits[0].count) {
        case (1, 1...2): hours = number(digits[0])
        case (1, 4):
            hours = number(Array(digits[0].prefix(2)))
            minutes = number(Array(digits[0].suffix(2)))
        case (2, 1...2) where digits[1].count == 2:
            hours = number(digits[0])
            minutes = number(digits[1])
        default: return nil
        }
        guard hours <= 23, minutes <= 59 else { return nil }
        return Zone(fixedOffset: sign * (hours * 3600 + minutes * 60), identifier: identifier)
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }
}
