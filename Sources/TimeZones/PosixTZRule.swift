/// A POSIX `TZ` rule such as `CET-1CEST,M3.5.0,M10.5.0/3`, `<+03>-3` or `EST5EDT,0/0,J365/25`.
///
/// A TZif file's footer holds one; it describes every instant after the file's last transition. Parsed as
/// POSIX.1-2017 §8.3 says, with RFC 8536's extensions: transition times from -167 to 167 hours, so a rule
/// can name "the day before at 23:00" (`M3.5.0/-1`) or "the day after" (`J365/25`).
public struct PosixTZRule: Sendable, Hashable {
    public var standard: LocalTimeType
    public var daylight: DaylightRule?

    /// When daylight saving time starts and ends each year.
    public struct DaylightRule: Sendable, Hashable {
        public var type: LocalTimeType
        public var start: TransitionDay
        /// Seconds after local midnight of the start day, in standard time.
        public var startTime: Int
        public var end: TransitionDay
        /// Seconds after local midnight of the end day, in daylight saving time.
        public var endTime: Int
    }

    /// The day of the year a rule changes on.
    public enum TransitionDay: Sendable, Hashable {
        /// `Jn`: day 1...365, never counting February 29.
        case julianNoLeap(Int)
        /// `n`: day 0...365, counting February 29.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1...5, 5 = the last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)

        func date(in year: Int) -> CivilDate {
            switch self {
            case .julianNoLeap(let day):
                // Day 60 is March 1 whether or not the year has a February 29.
                let leapShift = CivilDate.isLeapYear(year) && day >= 60 ? 1 : 0
                return CivilDate(
                    daysSince1970: CivilDate(year: year, month: 1, day: 1).daysSince1970 + day - 1 + leapShift)
            case .zeroBased(let day):
                return CivilDate(daysSince1970: CivilDate(year: year, month: 1, day: 1).daysSince1970 + day)
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilDate(year: year, month: month, day: 1)
                var day = 1 + CivilDate.floorModulo(weekday - first.weekday, 7) + (week - 1) * 7
                let length = CivilDate.daysInMonth(year: year, month: month)
                while day > length { day -= 7 }
                return CivilDate(year: year, month: month, day: day)
            }
        }
    }

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var rule: String
        public var reason: String
        public var description: String { "bad TZ rule \"\(rule)\": \(reason)" }
    }

    /// An instant (seconds since 1970) the rule changes at, and the type in force from then on.
    struct Change: Equatable {
        var instant: Int
        var isDaylight: Bool
    }

    // MARK: - Offsets

    public func localTimeType(at instant: Int) -> LocalTimeType {
        guard let daylight else { return standard }
        let instant = Zone.clamped(instant)
        let year = CivilDateTime(localSeconds: instant + standard.utcOffset).date.year
        var isDaylight = false
        for change in changes(years: (year - 1)...(year + 1)) where change.instant <= instant {
            isDaylight = change.isDaylight
        }
        return isDaylight ? daylight.type : standard
    }

    /// The first instant after `instant` at which the rule changes the type in force; nil for a rule without
    /// daylight saving time, or for one that is in daylight saving time all year.
    public func nextChange(after instant: Int) -> Int? {
        guard daylight != nil, instant < Zone.supportedInstants.upperBound else { return nil }
        let instant = Zone.clamped(instant)
        let year = CivilDateTime(localSeconds: instant + standard.utcOffset).date.year
        // Every rule with daylight time changes within a year and a bit; a change at the window's far end may be
        // half of a pair that the next year cancels, so each candidate is checked from both sides.
        for change in changes(years: (year - 1)...(year + 2)) where change.instant > instant {
            if localTimeType(at: change.instant) != localTimeType(at: change.instant - 1) { return change.instant }
        }
        return nil
    }

    /// The changes in `years`, in order. A daylight time that ends exactly when next year's begins (the
    /// "all year" form `0/0,J365/25`) is no change at all, so such pairs are dropped.
    func changes(years: ClosedRange<Int>) -> [Change] {
        guard let daylight else { return [] }
        var list: [Change] = []
        for year in years {
            let start =
                daylight.start.date(in: year).daysSince1970 * 86_400 + daylight.startTime - standard.utcOffset
            let end = daylight.end.date(in: year).daysSince1970 * 86_400 + daylight.endTime - daylight.type.utcOffset
            list.append(Change(instant: start, isDaylight: true))
            list.append(Change(instant: end, isDaylight: false))
        }
        list.sort { ($0.instant, $0.isDaylight ? 1 : 0) < ($1.instant, $1.isDaylight ? 1 : 0) }
        var merged: [Change] = []
        for change in list {
            if let last = merged.last, last.instant == change.instant, last.isDaylight != change.isDaylight {
                merged.removeLast()
                continue
            }
            merged.append(change)
        }
        return merged
    }

    // MARK: - Parsing

    public init(standard: LocalTimeType, daylight: DaylightRule?) {
        self.standard = standard
        self.daylight = daylight
    }

    public init(parsing text: String) throws(ParseError) {
        var scanner = Scanner(bytes: Array(text.utf8), text: text)
        let standardName = try scanner.name()
        let standardOffset = try scanner.offset(hoursUpTo: 24)
        standard = LocalTimeType(utcOffset: -standardOffset, isDST: false, abbreviation: standardName)
        guard !scanner.atEnd else {
            daylight = nil
            return
        }
        let daylightName = try scanner.name()
        var daylightOffset = standardOffset - 3600
        if !scanner.atEnd, scanner.peek != UInt8(ascii: ",") {
            daylightOffset = try scanner.offset(hoursUpTo: 24)
        }
        let type = LocalTimeType(utcOffset: -daylightOffset, isDST: true, abbreviation: daylightName)
        guard !scanner.atEnd else {
            // POSIX leaves the default rule to the implementation; tzcode uses the US rule since 2007.
            daylight = DaylightRule(
                type: type, start: .monthWeekDay(month: 3, week: 2, weekday: 0), startTime: 7200,
                end: .monthWeekDay(month: 11, week: 1, weekday: 0), endTime: 7200)
            return
        }
        try scanner.expect(",")
        let (start, startTime) = try scanner.dayAndTime()
        try scanner.expect(",")
        let (end, endTime) = try scanner.dayAndTime()
        guard scanner.atEnd else { throw scanner.error("unexpected text after the end rule") }
        daylight = DaylightRule(type: type, start: start, startTime: startTime, end: end, endTime: endTime)
    }

    private struct Scanner {
        let bytes: [UInt8]
        let text: String
        var position = 0

        init(bytes: [UInt8], text: String) {
            self.bytes = bytes
            self.text = text
        }

        var atEnd: Bool { position >= bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[position] }

        func error(_ reason: String) -> ParseError { ParseError(rule: text, reason: reason) }

        mutating func expect(_ character: Unicode.Scalar) throws(ParseError) {
            guard peek == UInt8(ascii: character) else { throw error("expected \"\(character)\"") }
            position += 1
        }

        /// `CET`, or the quoted form `<+0330>` for names with digits and signs.
        mutating func name() throws(ParseError) -> String {
            let start: Int
            let end: Int
            if peek == UInt8(ascii: "<") {
                position += 1
                start = position
                while let byte = peek, byte != UInt8(ascii: ">") {
                    guard Self.isAlphanumeric(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else {
                        throw error("bad character in a quoted name")
                    }
                    position += 1
                }
                end = position
                try expect(">")
            } else {
                start = position
                while let byte = peek, Self.isLetter(byte) { position += 1 }
                end = position
            }
            guard end - start >= 3 else { throw error("a zone name needs 3 or more characters") }
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }

        /// `[+-]hh[:mm[:ss]]` in seconds, as written (POSIX: positive is west of Greenwich).
        mutating func offset(hoursUpTo maximumHours: Int) throws(ParseError) -> Int {
            var sign = 1
            if peek == UInt8(ascii: "+") {
                position += 1
            } else if peek == UInt8(ascii: "-") {
                sign = -1
                position += 1
            }
            let hours = try number(upTo: maximumHours)
            var seconds = hours * 3600
            if peek == UInt8(ascii: ":") {
                position += 1
                seconds += try number(upTo: 59) * 60
                if peek == UInt8(ascii: ":") {
                    position += 1
                    seconds += try number(upTo: 59)
                }
            }
            return sign * seconds
        }

        /// A rule's day and its optional `/time` (02:00 when absent).
        mutating func dayAndTime() throws(ParseError) -> (TransitionDay, Int) {
            let day: TransitionDay
            if peek == UInt8(ascii: "J") {
                position += 1
                let value = try number(upTo: 365)
                guard value >= 1 else { throw error("Jn counts from 1") }
                day = .julianNoLeap(value)
            } else if peek == UInt8(ascii: "M") {
                position += 1
                let month = try number(upTo: 12)
                try expect(".")
                let week = try number(upTo: 5)
                try expect(".")
                let weekday = try number(upTo: 6)
                guard month >= 1, week >= 1 else { throw error("Mm.w.d counts months and weeks from 1") }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else {
                day = .zeroBased(try number(upTo: 365))
            }
            var time = 7200
            if peek == UInt8(ascii: "/") {
                position += 1
                time = try offset(hoursUpTo: 167)
            }
            return (day, time)
        }

        mutating func number(upTo maximum: Int) throws(ParseError) -> Int {
            var value = 0
            var digits = 0
            while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                position += 1
                guard value <= maximum else { throw error("number out of range (at most \(maximum))") }
            }
            guard digits > 0 else { throw error("expected a number") }
            return value
        }

        static func isLetter(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        }

        static func isAlphanumeric(_ byte: UInt8) -> Bool {
            isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
    }
}
