/// Calendar arithmetic in the proleptic Gregorian calendar, as pure integer functions.
///
/// The conversions between a date and a count of days are Howard Hinnant's `days_from_civil` and
/// `civil_from_days` (http://howardhinnant.github.io/date_algorithms.html): they work in 400-year eras,
/// with the year starting on March 1 so that the leap day is the last day of the year, and hold for any
/// year an `Int` can count days for.
public struct CivilDate: Sendable, Hashable, Comparable {
    public var year: Int
    public var month: Int  // 1...12
    public var day: Int  // 1...31

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` after 1970-01-01 (negative: before).
    public init(daysSince1970 days: Int) {
        let shifted = days + 719_468  // days from 0000-03-01 to 1970-01-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097  // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365  // 0...399
        let dayOfMarchYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0...365
        let monthFromMarch = (5 * dayOfMarchYear + 2) / 153  // 0 = March ... 11 = February
        day = dayOfMarchYear - (153 * monthFromMarch + 2) / 5 + 1
        month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to this date.
    public var daysSince1970: Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfMarchYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfMarchYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// 0 = Sunday … 6 = Saturday (strftime's `%w`).
    public var weekday: Int { Self.weekday(daysSince1970: daysSince1970) }

    static func weekday(daysSince1970 days: Int) -> Int {
        // 1970-01-01 was a Thursday.
        Self.floorModulo(days + 4, 7)
    }

    /// 1 = January 1 (strftime's `%j`).
    public var dayOfYear: Int {
        daysSince1970 - CivilDate(year: year, month: 1, day: 1).daysSince1970 + 1
    }

    /// The ISO 8601 week-numbering year and week (1...53): weeks start on Monday, and week 1 is the one
    /// holding the year's first Thursday (strftime's `%G` and `%V`).
    public var isoWeek: (year: Int, week: Int) {
        let days = daysSince1970
        // The Thursday of this date's Monday-based week decides which year the week belongs to.
        let mondayBased = Self.floorModulo(weekday - 1, 7)  // 0 = Monday
        let thursday = CivilDate(daysSince1970: days - mondayBased + 3)
        return (thursday.year, (thursday.dayOfYear - 1) / 7 + 1)
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func floorModulo(_ value: Int, _ divisor: Int) -> Int {
        let remainder = value % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }

    static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        (value - floorModulo(value, divisor)) / divisor
    }
}

/// A wall-clock date and time to the second, with no time zone attached.
public struct CivilDateTime: Sendable, Hashable, Comparable {
    public var date: CivilDate
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        date = CivilDate(year: year, month: month, day: day)
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The wall-clock time `seconds` after 1970-01-01T00:00:00 of a "local epoch" (UTC seconds plus an offset).
    public init(localSeconds seconds: Int) {
        let days = CivilDate.floorDivide(seconds, 86_400)
        let rest = seconds - days * 86_400
        date = CivilDate(daysSince1970: days)
        hour = rest / 3600
        minute = rest % 3600 / 60
        second = rest % 60
    }

    /// Seconds since 1970-01-01T00:00:00 of this wall-clock time read as if it were UTC.
    public var localSeconds: Int {
        date.daysSince1970 * 86_400 + hour * 3600 + minute * 60 + second
    }

    public static func < (lhs: CivilDateTime, rhs: CivilDateTime) -> Bool {
        lhs.localSeconds < rhs.localSeconds
    }
}
