import FoundationEssentials
import TimeZones

/// ISO 8601 / RFC 3339 text for instants, as `widgetd cron`, `widgetd list` and `--from` use it.
///
/// Computed with integer calendar arithmetic (proleptic Gregorian, as ISO 8601 is), not with a formatter: no
/// shared mutable state, so it is safe from any thread or task, and it needs no cache.
public enum ISO8601Text {
    /// `2026-11-29T19:30:00+01:00`: the wall-clock time in `timeZone`, to the second (fractions are dropped),
    /// and the offset in force at that instant. UTC is written `+00:00`, never `Z`. An offset with seconds
    /// (local mean time before 1900) is written `+HH:MM:SS`, which `parse` reads back. Years past 9999 are
    /// written with all their digits (`10000-01-01T00:00:00+00:00`); instants beyond `Zone.supportedInstants`
    /// are written as its nearest end.
    public static func format(_ date: Date, in timeZone: Zone) -> String {
        let instant = date.wholeSecondsSince1970
        let type = timeZone.offset(at: instant)
        let offset = type.utcOffset
        let local = CivilDateTime(localSeconds: instant + offset)
        var text = ""
        text.reserveCapacity(25)
        if local.date.year < 0 { text += "-" }
        append(abs(local.date.year), width: 4, to: &text)
        text += "-"
        append(local.date.month, width: 2, to: &text)
        text += "-"
        append(local.date.day, width: 2, to: &text)
        text += "T"
        append(local.hour, width: 2, to: &text)
        text += ":"
        append(local.minute, width: 2, to: &text)
        text += ":"
        append(local.second, width: 2, to: &text)
        text += offset < 0 ? "-" : "+"
        append(abs(offset) / 3600, width: 2, to: &text)
        text += ":"
        append(abs(offset) % 3600 / 60, width: 2, to: &text)
        if abs(offset) % 60 != 0 {
            text += ":"
            append(abs(offset) % 60, width: 2, to: &text)
        }
        return text
    }

    /// Reads an instant. Accepted, with `T`, `t` or one space between date and time:
    ///
    /// - `2026-11-29T19:30:00+01:00` (also `+0100`, `+01`, `+01:00:00`), `2026-11-29T19:30:00Z` — an instant;
    /// - `2026-11-29T19:30:00`, `2026-11-29T19:30` — wall-clock time in `defaultTimeZone`;
    /// - `2026-11-29` — midnight starting that day in `defaultTimeZone`.
    ///
    /// Seconds may carry a fraction (`19:30:00.250`). Fields are checked (`2026-02-30`, `24:00`, `+25:00` are
    /// refused). Surrounding whitespace is ignored; anything else returns nil.
    ///
    /// A wall-clock time without an offset that occurs twice (a fall-back hour) means its first occurrence; one
    /// that does not exist (a spring-forward gap) is read with the offset in force before the gap, so
    /// `2026-03-29T02:30` in Europe/Berlin is 01:30Z (03:30 CEST) — what RFC 5545, `java.time` and JavaScript's
    /// Temporal do. (A cron *schedule* treats such times differently; see `CronExpression.nextDate(after:in:)`.)
    public static func parse(_ text: String, defaultTimeZone: Zone) -> Date? {
        var scanner = Cursor(Array(text.utf8))
        scanner.skipSpaces()
        // Four digits, or more for years past 9999 (with ISO 8601's `+` or without, as `cron` prints them), so a
        // printed date can be read back.
        _ = scanner.take("+")
        let yearDigits = scanner.digits()
        guard (4...9).contains(yearDigits.count), let year = Int(yearDigits), scanner.take("-"),
            let month = scanner.number(digits: 2), (1...12).contains(month), scanner.take("-"),
            let day = scanner.number(digits: 2), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        var civil = CivilDateTime(year: year, month: month, day: day)
        var fraction = 0.0
        var offset: Int?
        if scanner.take("T") || scanner.take("t") || (scanner.take(" ") && !scanner.atEndIgnoringSpaces) {
            guard let hour = scanner.number(digits: 2), hour < 24, scanner.take(":"),
                let minute = scanner.number(digits: 2), minute < 60
            else { return nil }
            civil.hour = hour
            civil.minute = minute
            if scanner.take(":") {
                guard let second = scanner.number(digits: 2), second < 60 else { return nil }
                civil.second = second
                if scanner.take(".") || scanner.take(",") {
                    let digits = scanner.digits()
                    guard !digits.isEmpty, digits.count <= 9, let value = Double("0." + digits) else { return nil }
                    fraction = value
                }
            }
            if scanner.take("Z") || scanner.take("z") {
                offset = 0
            } else if let sign = scanner.take("+") ? 1 : scanner.take("-") ? -1 : nil {
                guard let hours = scanner.number(digits: 2), hours < 24 else { return nil }
                var minutes = 0
                var seconds = 0
                let colon = scanner.take(":")
                if colon || scanner.peekDigit {
                    guard let value = scanner.number(digits: 2), value < 60 else { return nil }
                    minutes = value
                    if colon, scanner.take(":") {
                        guard let value = scanner.number(digits: 2), value < 60 else { return nil }
                        seconds = value
                    }
                }
                offset = sign * (hours * 3600 + minutes * 60 + seconds)
            }
        }
        scanner.skipSpaces()
        guard scanner.atEnd else { return nil }
        let local = civil.localSeconds
        let instant = offset.map { local - $0 } ?? resolve(local: local, in: defaultTimeZone)
        return Date(timeIntervalSince1970: Double(instant) + fraction)
    }

    /// The instant of a wall-clock time in `timeZone`: the earlier one when it occurs twice, and with the offset
    /// from before the transition when it falls in a gap.
    static func resolve(local: Int, in timeZone: Zone) -> Int {
        switch timeZone.resolve(local: local) {
        case .unique(let instant): instant
        case .repeated(let first, _): first
        case .skipped(_, let before, _): local - before.utcOffset
        }
    }

    private static func append(_ value: Int, width: Int, to text: inout String) {
        let digits = String(value)
        if digits.count < width { text += String(repeating: "0", count: width - digits.count) }
        text += digits
    }

    /// A cursor over ASCII bytes.
    private struct Cursor {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }
        var atEndIgnoringSpaces: Bool { bytes[index...].allSatisfy(Self.isSpace) }
        var peekDigit: Bool { index < bytes.count && Self.isDigit(bytes[index]) }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        static func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r")
        }

        mutating func skipSpaces() {
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        /// Exactly `digits` ASCII digits, as a number.
        mutating func number(digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard Self.isDigit(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += digits
            return value
        }

        /// All ASCII digits from here, as text.
        mutating func digits() -> String {
            let start = index
            while peekDigit { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }
}
