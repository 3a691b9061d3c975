import Foundation

/// strftime-style formatting for the clock kind and computed timelines, from calendar fields in a given zone.
///
/// Our own rather than libc's `strftime`, because libc reads the zone from the process-wide `TZ`, and
/// each clock instance may have its own `timezone:`. Names are English, as in the C locale.
public struct Strftime: Sendable, Hashable {
    /// The calendar fields one formatted instant needs.
    public struct Fields: Sendable {
        public var year: Int
        public var month: Int
        public var day: Int
        public var hour: Int
        public var minute: Int
        public var second: Int
        /// 1 is Sunday, as Foundation counts.
        public var weekday: Int
        public var dayOfYear: Int
        public var offsetSeconds: Int
        public var zoneAbbreviation: String
    }

    /// The conversions understood; anything else after `%` is written as it stands.
    public static let conversions: Set<Character> = [
        "H", "M", "S", "I", "p", "P", "d", "e", "m", "y", "Y", "a", "A", "b", "h", "B", "j", "u", "w", "Z", "z", "R",
        "T", "D", "F", "n", "t", "%", "k", "l",
    ]

    public let format: String
    /// Whether the format writes `%Z`, whose zone name is the one costly field to find.
    public let needsZoneAbbreviation: Bool

    public init(format: String) {
        self.format = format
        needsZoneAbbreviation = format.contains("%Z")
    }

    /// Whether the text changes within a minute: the format writes seconds (`%S`, `%T`), read as `string(from:)` reads
    /// it, so `%%S` is no conversion.
    public var writesSeconds: Bool {
        var escaped = false
        for character in format {
            if escaped {
                if character == "S" || character == "T" { return true }
                escaped = false
            } else if character == "%" {
                escaped = true
            }
        }
        return false
    }

    public static func fields(of date: Date, in zone: TimeZone, calendar: Calendar) -> Fields {
        let parts = calendar.dateComponents(in: zone, from: date)
        let dayOfYear = calendar.ordinality(of: .day, in: .year, for: date) ?? 1
        return Fields(
            year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1, hour: parts.hour ?? 0,
            minute: parts.minute ?? 0, second: parts.second ?? 0, weekday: parts.weekday ?? 1, dayOfYear: dayOfYear,
            offsetSeconds: zone.secondsFromGMT(for: date), zoneAbbreviation: ZoneAbbreviation.of(zone, at: date))
    }

    /// The fields of `date` at a known UTC offset: integer arithmetic alone, no `Calendar`, so a computed timeline can
    /// write out its current entry at every wake-up cheaply. The day of the year is counted in `zone`.
    public static func fields(of date: Date, offsetSeconds: Int, zoneAbbreviation: String) -> Fields {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + offsetSeconds
        let civil = CivilTime(localSeconds: local)
        let dayOfYear =
            CivilTime.days(year: civil.year, month: civil.month, day: civil.day)
            - CivilTime.days(year: civil.year, month: 1, day: 1) + 1
        return Fields(
            year: civil.year, month: civil.month, day: civil.day, hour: civil.hour, minute: civil.minute,
            second: civil.second, weekday: CivilTime.weekday(year: civil.year, month: civil.month, day: civil.day) + 1,
            dayOfYear: dayOfYear, offsetSeconds: offsetSeconds, zoneAbbreviation: zoneAbbreviation)
    }

    public func string(from fields: Fields) -> String {
        var output = ""
        var escaped = false
        for character in format {
            guard escaped else {
                if character == "%" { escaped = true } else { output.append(character) }
                continue
            }
            escaped = false
            output += conversion(character, fields)
        }
        if escaped { output.append("%") }
        return output
    }

    // Static, so writing out a clock's text at each wake-up makes no arrays.
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    private func conversion(_ character: Character, _ f: Fields) -> String {
        let hour12 = f.hour % 12 == 0 ? 12 : f.hour % 12
        switch character {
        case "H": return pad(f.hour)
        case "k": return pad(f.hour, with: " ")
        case "M": return pad(f.minute)
        case "S": return pad(f.second)
        case "I": return pad(hour12)
        case "l": return pad(hour12, with: " ")
        case "p": return f.hour < 12 ? "AM" : "PM"
        case "P": return f.hour < 12 ? "am" : "pm"
        case "d": return pad(f.day)
        case "e": return pad(f.day, with: " ")
        case "m": return pad(f.month)
        case "y": return pad(f.year % 100)
        case "Y": return String(f.year)
        case "a": return String(Self.weekdays[f.weekday - 1].prefix(3))
        case "A": return Self.weekdays[f.weekday - 1]
        case "b", "h": return String(Self.months[f.month - 1].prefix(3))
        case "B": return Self.months[f.month - 1]
        case "j": return String(repeating: "0", count: max(0, 3 - String(f.dayOfYear).count)) + String(f.dayOfYear)
        case "u": return String(f.weekday == 1 ? 7 : f.weekday - 1)
        case "w": return String(f.weekday - 1)
        case "Z": return f.zoneAbbreviation
        case "z":
            let sign = f.offsetSeconds < 0 ? "-" : "+"
            let minutes = abs(f.offsetSeconds) / 60
            return sign + pad(minutes / 60) + pad(minutes % 60)
        case "R": return pad(f.hour) + ":" + pad(f.minute)
        case "T": return pad(f.hour) + ":" + pad(f.minute) + ":" + pad(f.second)
        case "D": return pad(f.month) + "/" + pad(f.day) + "/" + pad(f.year % 100)
        case "F": return String(f.year) + "-" + pad(f.month) + "-" + pad(f.day)
        case "n": return "\n"
        case "t": return "\t"
        case "%": return "%"
        default: return "%" + String(character)
        }
    }

    private func pad(_ value: Int, with filler: Character = "0") -> String {
        value < 10 ? String(filler) + String(value) : String(value)
    }
}
