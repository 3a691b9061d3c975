/// strftime-style formatting of a wall-clock time, in the C/POSIX locale (English names, 24-hour `%R`).
///
/// The conversions are the clock kind's (docs/kinds.md, "clock"); any other character after `%` is written as it
/// stands, `%` included, and so is a lone `%` at the end. Years are written as plain numbers whatever their
/// size (`%Y` of year 12026 is `12026`).
public struct TimeFormat: Sendable, Hashable {
    public let format: String

    /// The conversion characters understood.
    public static let conversions: Set<Character> = [
        "H", "M", "S", "I", "p", "P", "d", "e", "m", "y", "Y", "a", "A", "b", "h", "B", "j", "u", "w", "Z", "z", "R",
        "T", "D", "F", "n", "t", "%", "k", "l",
    ]

    public init(_ format: String) {
        self.format = format
    }

    /// Whether the text changes within a minute: the format writes seconds (`%S`, `%T`), read as `string(from:type:)`
    /// reads it, so `%%S` is no conversion.
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

    /// `unixSeconds` as the wall clock in `zone` shows it.
    public func string(at unixSeconds: Int, in zone: Zone) -> String {
        let (time, type) = zone.civilTime(at: unixSeconds)
        return string(from: time, type: type)
    }

    /// `time`, with `type` giving `%z` and `%Z`.
    public func string(from time: CivilDateTime, type: LocalTimeType) -> String {
        var output = ""
        var escaped = false
        for character in format {
            guard escaped else {
                if character == "%" { escaped = true } else { output.append(character) }
                continue
            }
            escaped = false
            append(character, of: time, type: type, to: &output)
        }
        if escaped { output.append("%") }
        return output
    }

    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    private func append(_ character: Character, of time: CivilDateTime, type: LocalTimeType, to output: inout String) {
        let date = time.date
        let hour12 = time.hour % 12 == 0 ? 12 : time.hour % 12
        switch character {
        case "H": output += Self.pad(time.hour)
        case "k": output += Self.pad(time.hour, with: " ")
        case "M": output += Self.pad(time.minute)
        case "S": output += Self.pad(time.second)
        case "I": output += Self.pad(hour12)
        case "l": output += Self.pad(hour12, with: " ")
        case "p": output += time.hour < 12 ? "AM" : "PM"
        case "P": output += time.hour < 12 ? "am" : "pm"
        case "d": output += Self.pad(date.day)
        case "e": output += Self.pad(date.day, with: " ")
        case "m": output += Self.pad(date.month)
        case "y": output += Self.pad(CivilDate.floorModulo(date.year, 100))
        case "Y": output += String(date.year)
        case "a": output += Self.weekdays[date.weekday].prefix(3)
        case "A": output += Self.weekdays[date.weekday]
        case "b", "h": output += Self.months[date.month - 1].prefix(3)
        case "B": output += Self.months[date.month - 1]
        case "j": output += Self.pad(date.dayOfYear, width: 3)
        case "u": output += String(date.weekday == 0 ? 7 : date.weekday)
        case "w": output += String(date.weekday)
        case "Z": output += type.abbreviation
        case "z":
            // ±hhmm; seconds of an offset (local mean time before 1900) are dropped, as glibc does.
            let minutes = abs(type.utcOffset) / 60
            output += (type.utcOffset < 0 ? "-" : "+") + Self.pad(minutes / 60) + Self.pad(minutes % 60)
        case "R": output += Self.pad(time.hour) + ":" + Self.pad(time.minute)
        case "T": output += Self.pad(time.hour) + ":" + Self.pad(time.minute) + ":" + Self.pad(time.second)
        case "D":
            output +=
                Self.pad(date.month) + "/" + Self.pad(date.day) + "/" + Self.pad(CivilDate.floorModulo(date.year, 100))
        case "F": output += String(date.year) + "-" + Self.pad(date.month) + "-" + Self.pad(date.day)
        case "n": output += "\n"
        case "t": output += "\t"
        case "%": output += "%"
        default:
            output += "%"
            output.append(character)
        }
    }

    private static func pad(_ value: Int, width: Int = 2, with filler: Character = "0") -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: filler, count: width - digits.count) + digits
    }
}
