import Foundation
import Testing
import TimeZones

/// Civil-time arithmetic against Foundation's Gregorian and ISO 8601 calendars.
@Suite struct CivilDateTests {
    @Test func daysRoundTripAndMatchFoundation() throws {
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = try #require(TimeZone(identifier: "UTC"))
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = gregorian.timeZone
        // Every 7th day plus one (so every weekday comes round) from 1601 to 2500, and the years around 1 AD.
        let from = CivilDate(year: 1601, month: 1, day: 1).daysSince1970
        let to = CivilDate(year: 2500, month: 12, day: 31).daysSince1970
        for days in stride(from: from, through: to, by: 8) {
            let date = CivilDate(daysSince1970: days)
            #expect(date.daysSince1970 == days)
            let foundation = Date(timeIntervalSince1970: Double(days) * 86_400)
            let parts = gregorian.dateComponents([.year, .month, .day, .weekday], from: foundation)
            #expect(
                [date.year, date.month, date.day, date.weekday + 1]
                    == [parts.year, parts.month, parts.day, parts.weekday], "day \(days)")
            #expect(date.dayOfYear == gregorian.ordinality(of: .day, in: .year, for: foundation), "day \(days)")
            let week = iso.dateComponents([.yearForWeekOfYear, .weekOfYear], from: foundation)
            #expect(
                [date.isoWeek.year, date.isoWeek.week] == [week.yearForWeekOfYear, week.weekOfYear], "day \(days)")
        }
    }

    @Test func knownDates() {
        #expect(CivilDate(year: 1970, month: 1, day: 1).daysSince1970 == 0)
        #expect(CivilDate(year: 2000, month: 3, day: 1).daysSince1970 == 11_017)
        #expect(CivilDate(daysSince1970: -1) == CivilDate(year: 1969, month: 12, day: 31))
        #expect(CivilDate(year: 0, month: 3, day: 1).daysSince1970 == -719_468)
        #expect(CivilDate(daysSince1970: -719_469) == CivilDate(year: 0, month: 2, day: 29))  // 1 BC is a leap year
        #expect(CivilDate(year: 2024, month: 12, day: 31).dayOfYear == 366)
        #expect(CivilDate(year: 2026, month: 11, day: 30).weekday == 1)  // a Monday
        // ISO weeks at year ends: 2020-12-31 is in 2020-W53, 2021-01-03 too; 2024-12-30 is in 2025-W01.
        #expect(CivilDate(year: 2021, month: 1, day: 3).isoWeek == (2020, 53))
        #expect(CivilDate(year: 2024, month: 12, day: 30).isoWeek == (2025, 1))
        #expect(
            CivilDateTime(localSeconds: -1)
                == CivilDateTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(CivilDateTime(year: 12026, month: 1, day: 1).localSeconds == 317_336_745_600)
        for days in [-1_000_000_000, -146_097, -1, 0, 59, 60, 146_097, 1_000_000_000] {
            #expect(CivilDate(daysSince1970: days).daysSince1970 == days)
        }
    }
}
