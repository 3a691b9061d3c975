/// A wall-clock date and time to the second in the proleptic Gregorian calendar, with no time zone attached.
///
/// Cron's next-date search and `ISO8601Text` do their calendar arithmetic with this, not with `Calendar`:
/// it is pure integer arithmetic (fast, no locks, `Sendable`), and it never applies Foundation's rules for
/// nonexistent local times, which cron replaces with its own (see `CronExpression.nextDate(after:in:)`).
/// Time zones enter only through `TimeZone.secondsFromGMT(for:)` and `nextDaylightSavingTimeTransition(after:)`.
struct CivilTime: Sendable, Hashable {
    var year: Int
    var month: Int  // 1...12
    var day: Int  // 1...31
    var hour: Int = 0
    var minute: Int = 0
    var second: Int = 0

    static let secondsPerDay = 86_400

    /// Days from 1970-01-01 to `year-month-day` (Howard Hinnant's `days_from_civil`).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func date(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// 0 = Sunday … 6 = Saturday, as cron numbers them.
    static func weekday(year: Int, month: Int, day: Int) -> Int {
        let days = days(year: year, month: month, day: day)
        // 1970-01-01 was a Thursday.
        return ((days + 4) % 7 + 7) % 7
    }

    /// The wall-clock time `seconds` after 1970-01-01T00:00:00 (a "local epoch": UTC seconds plus an offset).
    init(localSeconds seconds: Int) {
        let days =
            seconds >= 0 ? seconds / Self.secondsPerDay : -((-seconds + Self.secondsPerDay - 1) / Self.secondsPerDay)
        let (year, month, day) = Self.date(fromDays: days)
        let rest = seconds - days * Self.secondsPerDay
        self.init(year: year, month: month, day: day, hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60)
    }

    init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Seconds since 1970-01-01T00:00:00 of this wall-clock time read as if it were UTC.
    var localSeconds: Int {
        Self.days(year: year, month: month, day: day) * Self.secondsPerDay + hour * 3600 + minute * 60 + second
    }
}
