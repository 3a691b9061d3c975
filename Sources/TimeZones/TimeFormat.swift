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
        asciiString(from: time, type: type) ?? characterString(from: time, type: type)
    }

    /// `string(from:type:)` by Character, for a format that is not ASCII alone: a combining mark after `%` or after a
    /// conversion letter makes one Character with it, which is then written as it stands.
    func characterString(from time: CivilDateTime, type: LocalTimeType) -> String {
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

    /// `string(from:type:)` byte by byte, into a buffer on the stack, for an ASCII format (every clock's in practice):
    /// its bytes are then its Characters (CR LF, one Character, writes the same bytes either way), and the text is
    /// made with no allocation when it fits a small string. A per-second clock writes one at every swap, and going by
    /// Character, with a `String` per number, would be a large part of a swap's own work (docs/PERFORMANCE.md, "Swap
    /// cost"). Nil when the format has a byte that is not ASCII.
    func asciiString(from time: CivilDateTime, type: LocalTimeType) -> String? {
        let abbreviation = type.abbreviation.utf8
        // Each conversion is two bytes of the format and writes at most 26 (`%F` of a 20-digit year), or the zone's
        // abbreviation; each other byte writes itself, and a lone `%` at the end one more.
        let capacity = format.utf8.count * (13 + abbreviation.count) + 1
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> String? in
            var count = 0
            func put(_ byte: UInt8) {
                buffer[count] = byte
                count += 1
            }
            func put<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
                for byte in bytes { put(byte) }
            }
            // `String(value)`, padded on the left with `filler` to `width` characters, as `pad` does.
            func put(_ value: Int, width: Int = 2, filler: UInt8 = UInt8(ascii: "0")) {
                // Two digits, for an hour, minute, second, day or month: written at once, as they are most of what a
                // clock writes at every swap (docs/PERFORMANCE.md, "Swap cost").
                if width == 2, value >= 0, value < 100 {
                    buffer[count] = value < 10 ? filler : UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)
                    buffer[count + 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
                    count += 2
                    return
                }
                var magnitude = value.magnitude
                var digits = 1
                var power: UInt = 10
                while digits < 20, magnitude >= power {
                    digits += 1
                    power = power.multipliedReportingOverflow(by: 10).partialValue
                }
                let length = digits + (value < 0 ? 1 : 0)
                for _ in 0..<max(0, width - length) { put(filler) }
                if value < 0 { put(UInt8(ascii: "-")) }
                count += digits
                for index in stride(from: count - 1, through: count - digits, by: -1) {
                    buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                }
            }
            let date = time.date
            let hour12 = time.hour % 12 == 0 ? 12 : time.hour % 12
            var escaped = false
            for byte in format.utf8 {
                guard byte < 0x80 else { return nil }
                guard escaped else {
                    if byte == UInt8(ascii: "%") { escaped = true } else { put(byte) }
                    continue
                }
                escaped = false
                switch byte {
                case UInt8(ascii: "H"): put(time.hour)
                case UInt8(ascii: "k"): put(time.hour, filler: UInt8(ascii: " "))
                case UInt8(ascii: "M"): put(time.minute)
                case UInt8(ascii: "S"): put(time.second)
                case UInt8(ascii: "I"): put(hour12)
                case UInt8(ascii: "l"): put(hour12, filler: UInt8(ascii: " "))
                case UInt8(ascii: "p"): put((time.hour < 12 ? "AM" : "PM").utf8)
                case UInt8(ascii: "P"): put((time.hour < 12 ? "am" : "pm").utf8)
                case UInt8(ascii: "d"): put(date.day)
                case UInt8(ascii: "e"): put(date.day, filler: UInt8(ascii: " "))
                case UInt8(ascii: "m"): put(date.month)
                case UInt8(ascii: "y"): put(CivilDate.floorModulo(date.year, 100))
                case UInt8(ascii: "Y"): put(date.year, width: 0)
                case UInt8(ascii: "a"): put(Self.weekdays[date.weekday].utf8.prefix(3))
                case UInt8(ascii: "A"): put(Self.weekdays[date.weekday].utf8)
                case UInt8(ascii: "b"), UInt8(ascii: "h"): put(Self.months[date.month - 1].utf8.prefix(3))
                case UInt8(ascii: "B"): put(Self.months[date.month - 1].utf8)
                case UInt8(ascii: "j"): put(date.dayOfYear, width: 3)
                case UInt8(ascii: "u"): put(date.weekday == 0 ? 7 : date.weekday, width: 0)
                case UInt8(ascii: "w"): put(date.weekday, width: 0)
                case UInt8(ascii: "Z"): put(abbreviation)
                case UInt8(ascii: "z"):
                    let minutes = abs(type.utcOffset) / 60
                    put(type.utcOffset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                    put(minutes / 60)
                    put(minutes % 60)
                case UInt8(ascii: "R"), UInt8(ascii: "T"):
                    put(time.hour)
                    put(UInt8(ascii: ":"))
                    put(time.minute)
                    // %T is %R with the seconds.
                    if byte == UInt8(ascii: "T") {
                        put(UInt8(ascii: ":"))
                        put(time.second)
                    }
                case UInt8(ascii: "D"):
                    put(date.month)
                    put(UInt8(ascii: "/"))
                    put(date.day)
                    put(UInt8(ascii: "/"))
                    put(CivilDate.floorModulo(date.year, 100))
                case UInt8(ascii: "F"):
                    if date.year > 9999 { put(UInt8(ascii: "+")) }
                    put(date.year, width: 0)
                    put(UInt8(ascii: "-"))
                    put(date.month)
                    put(UInt8(ascii: "-"))
                    put(date.day)
                case UInt8(ascii: "n"): put(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): put(UInt8(ascii: "\t"))
                case UInt8(ascii: "%"): put(UInt8(ascii: "%"))
                default:
                    put(UInt8(ascii: "%"))
                    put(byte)
                }
            }
            if escaped { put(UInt8(ascii: "%")) }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
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
        // glibc's `%F` is `%+4Y-%m-%d`: a year of more than four digits carries a `+`, as `date +%F` writes it.
        case "F":
            output +=
                (date.year > 9999 ? "+" : "") + String(date.year) + "-" + Self.pad(date.month) + "-"
                + Self.pad(date.day)
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
