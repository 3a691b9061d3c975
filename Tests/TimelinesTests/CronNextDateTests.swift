import Foundation
import Testing
import TimeZones
import Timelines

/// Instants are written as ISO 8601 text with the offset in force in the case's zone, so each expectation reads as
/// the wall-clock time a user would see; the UTC instant is in the trailing comment where a DST rule is at stake.
/// Facts used below: 2026-01-01 is a Thursday, so 2026-05-13 is a Wednesday and 2026-07-13 a Monday. Europe/Berlin
/// springs forward at 2026-03-29T01:00Z (02:00 CET → 03:00 CEST) and falls back at 2026-10-25T01:00Z (03:00 CEST →
/// 02:00 CET); America/New_York at 2026-03-08T07:00Z (02:00 EST → 03:00 EDT) and 2026-11-01T06:00Z (02:00 EDT →
/// 01:00 EST).
@Suite("cron next fire times")
struct CronNextDateTests {
    struct NextCase: Sendable, CustomTestStringConvertible {
        var expression: String
        var zone: String
        var from: String
        var expected: String?
        init(_ expression: String, _ zone: String, from: String, _ expected: String?) {
            (self.expression, self.zone, self.from, self.expected) = (expression, zone, from, expected)
        }
        var testDescription: String { "'\(expression)' in \(zone) after \(from)" }
    }

    static let utc = "UTC"
    static let berlin = "Europe/Berlin"
    static let newYork = "America/New_York"

    @Test(arguments: [
        // Every minute, steps, ranges, lists, names (UTC).
        NextCase("* * * * *", utc, from: "2026-05-13T10:17:23+00:00", "2026-05-13T10:18:00+00:00"),
        NextCase("* * * * *", utc, from: "2026-05-13T10:00:00+00:00", "2026-05-13T10:01:00+00:00"),  // strictly after
        NextCase("*/5 * * * *", utc, from: "2026-05-13T10:17:23+00:00", "2026-05-13T10:20:00+00:00"),
        NextCase("5/20 * * * *", utc, from: "2026-05-13T10:46:00+00:00", "2026-05-13T11:05:00+00:00"),
        NextCase("0 9-17 * * *", utc, from: "2026-05-13T17:30:00+00:00", "2026-05-14T09:00:00+00:00"),
        NextCase("15,45 */6 * * *", utc, from: "2026-05-13T10:17:23+00:00", "2026-05-13T12:15:00+00:00"),
        NextCase("0 0 * jun,dec *", utc, from: "2026-05-13T10:17:23+00:00", "2026-06-01T00:00:00+00:00"),
        NextCase("30 8 * * mon-fri", utc, from: "2026-05-15T09:00:00+00:00", "2026-05-18T08:30:00+00:00"),  // Fri → Mon
        NextCase("0 6 * oct-dec sat", utc, from: "2026-05-13T10:17:23+00:00", "2026-10-03T06:00:00+00:00"),
        NextCase("59 23 31 12 *", utc, from: "2026-12-31T23:59:00+00:00", "2027-12-31T23:59:00+00:00"),
        // Shorthands.
        NextCase("@hourly", utc, from: "2026-05-13T10:17:23+00:00", "2026-05-13T11:00:00+00:00"),
        NextCase("@daily", utc, from: "2026-05-13T10:17:23+00:00", "2026-05-14T00:00:00+00:00"),
        NextCase("@weekly", utc, from: "2026-05-13T10:17:23+00:00", "2026-05-17T00:00:00+00:00"),  // Sunday
        NextCase("@weekly", utc, from: "2026-05-17T00:00:00+00:00", "2026-05-24T00:00:00+00:00"),
        NextCase("@monthly", utc, from: "2026-05-13T10:17:23+00:00", "2026-06-01T00:00:00+00:00"),
        NextCase("@yearly", utc, from: "2026-05-13T10:17:23+00:00", "2027-01-01T00:00:00+00:00"),
        // Days: Feb 29, 31-day months, the impossible, Sunday as 0 and 7, Vixie's OR rule.
        NextCase("0 0 29 2 *", utc, from: "2026-05-13T10:17:23+00:00", "2028-02-29T00:00:00+00:00"),
        NextCase("0 0 31 * *", utc, from: "2026-05-31T12:00:00+00:00", "2026-07-31T00:00:00+00:00"),  // skips June
        NextCase("0 0 30 2 *", utc, from: "2026-05-13T10:17:23+00:00", nil),
        NextCase("0 0 31 4,6,9,11 *", utc, from: "2026-05-13T10:17:23+00:00", nil),
        // The 8-year horizon, inclusive. `*/29` is unrestricted, so: Feb 1 or 30 that is a Monday — 2027, 2038.
        NextCase("0 0 */29 2 mon", utc, from: "2027-03-01T00:00:00+00:00", nil),
        NextCase("0 0 */29 2 mon", utc, from: "2030-02-01T00:00:00+00:00", "2038-02-01T00:00:00+00:00"),
        NextCase("0 0 */29 2 mon", utc, from: "2030-01-31T23:59:59+00:00", nil),
        NextCase("0 12 * * 0", utc, from: "2026-05-13T10:17:23+00:00", "2026-05-17T12:00:00+00:00"),
        NextCase("0 12 * * 7", utc, from: "2026-05-13T10:17:23+00:00", "2026-05-17T12:00:00+00:00"),
        NextCase("0 12 * * sun", utc, from: "2026-05-13T10:17:23+00:00", "2026-05-17T12:00:00+00:00"),
        NextCase("0 0 13 * fri", utc, from: "2026-05-13T10:17:23+00:00", "2026-05-15T00:00:00+00:00"),  // a Friday
        NextCase("0 0 13 * fri", utc, from: "2026-07-11T00:00:00+00:00", "2026-07-13T00:00:00+00:00"),  // Mon 13th
        // `*/2` day-of-month is unrestricted, so both day fields must match: odd days that are Fridays.
        NextCase("0 0 */2 * fri", utc, from: "2026-05-16T00:00:00+00:00", "2026-05-29T00:00:00+00:00"),
        // Europe/Berlin, no transition involved.
        NextCase("0 9 * * *", berlin, from: "2026-05-13T12:17:23+02:00", "2026-05-14T09:00:00+02:00"),  // 07:00Z
        NextCase("0 0 * * *", berlin, from: "2026-05-14T00:30:00+02:00", "2026-05-15T00:00:00+02:00"),  // 22:00Z
        NextCase("@yearly", berlin, from: "2026-05-13T12:00:00+02:00", "2027-01-01T00:00:00+01:00"),  // 12-31 23:00Z
        NextCase("@yearly", berlin, from: "2027-01-01T00:00:00+01:00", "2028-01-01T00:00:00+01:00"),
        NextCase("0 0 29 2 *", berlin, from: "2026-01-01T00:00:00+01:00", "2028-02-29T00:00:00+01:00"),  // 02-28 23Z
        // Europe/Berlin spring forward, 2026-03-29: 02:00–02:59 do not exist.
        NextCase("30 2 * * *", berlin, from: "2026-03-28T13:00:00+01:00", "2026-03-29T03:00:00+02:00"),  // 01:00Z
        NextCase("30 2 * * *", berlin, from: "2026-03-29T03:00:00+02:00", "2026-03-30T02:30:00+02:00"),  // 00:30Z
        // From the last second before the gap (00:59:59Z): the transition itself is the next instant.
        NextCase("30 2 * * *", berlin, from: "2026-03-29T01:59:59+01:00", "2026-03-29T03:00:00+02:00"),  // 01:00Z
        NextCase("0 2,3 * * *", berlin, from: "2026-03-29T01:59:59+01:00", "2026-03-29T03:00:00+02:00"),
        NextCase("0 3 * * *", berlin, from: "2026-03-29T01:59:59+01:00", "2026-03-29T03:00:00+02:00"),  // no gap match
        NextCase("0 4 * * *", berlin, from: "2026-03-29T01:59:59+01:00", "2026-03-29T04:00:00+02:00"),  // 02:00Z
        NextCase("30 * * * *", berlin, from: "2026-03-29T01:59:59+01:00", "2026-03-29T03:30:00+02:00"),  // wild hour
        NextCase("*/15 2 * * *", berlin, from: "2026-03-28T13:00:00+01:00", "2026-03-29T03:00:00+02:00"),  // once
        NextCase("*/15 2 * * *", berlin, from: "2026-03-29T03:00:00+02:00", "2026-03-30T02:00:00+02:00"),  // 00:00Z
        NextCase("0 2,3 * * *", berlin, from: "2026-03-29T01:00:00+01:00", "2026-03-29T03:00:00+02:00"),
        NextCase("0 2,3 * * *", berlin, from: "2026-03-29T03:00:00+02:00", "2026-03-30T02:00:00+02:00"),  // once
        NextCase("30 * * * *", berlin, from: "2026-03-29T01:45:00+01:00", "2026-03-29T03:30:00+02:00"),  // 01:30Z
        NextCase("0 */2 * * *", berlin, from: "2026-03-29T01:00:00+01:00", "2026-03-29T04:00:00+02:00"),  // wild hour
        // Europe/Berlin fall back, 2026-10-25: 02:00–02:59 happen twice, CEST (00:xxZ) then CET (01:xxZ).
        NextCase("30 2 * * *", berlin, from: "2026-10-24T14:00:00+02:00", "2026-10-25T02:30:00+02:00"),  // 00:30Z
        NextCase("30 2 * * *", berlin, from: "2026-10-25T02:30:00+02:00", "2026-10-26T02:30:00+01:00"),  // 10-26 01:30Z
        NextCase("0 2 * * *", berlin, from: "2026-10-25T02:30:00+02:00", "2026-10-26T02:00:00+01:00"),
        NextCase("0 3 * * *", berlin, from: "2026-10-25T02:00:00+01:00", "2026-10-25T03:00:00+01:00"),  // 02:00Z
        NextCase("*/15 * * * *", berlin, from: "2026-10-25T02:45:00+02:00", "2026-10-25T02:00:00+01:00"),  // 01:00Z
        // America/New_York.
        NextCase("30 9 * * mon-fri", newYork, from: "2026-05-15T10:00:00-04:00", "2026-05-18T09:30:00-04:00"),
        NextCase("0 0 * * *", newYork, from: "2026-01-15T07:00:00-05:00", "2026-01-16T00:00:00-05:00"),  // 05:00Z
        NextCase("30 2 * * *", newYork, from: "2026-03-07T07:00:00-05:00", "2026-03-08T03:00:00-04:00"),  // 07:00Z
        NextCase("30 2 * * *", newYork, from: "2026-03-08T03:00:00-04:00", "2026-03-09T02:30:00-04:00"),  // 06:30Z
        NextCase("30 2 * * *", newYork, from: "2026-03-08T01:59:59-05:00", "2026-03-08T03:00:00-04:00"),  // 07:00Z
        NextCase("30 1 * * *", newYork, from: "2026-10-31T08:00:00-04:00", "2026-11-01T01:30:00-04:00"),  // 05:30Z
        NextCase("30 1 * * *", newYork, from: "2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"),  // 06:30Z
        NextCase("*/20 * * * *", newYork, from: "2026-11-01T01:50:00-04:00", "2026-11-01T01:00:00-05:00"),  // 06:00Z
    ])
    func nextDate(_ item: NextCase) throws {
        let zone = try Zone.load(identifier: item.zone)
        let cron = try CronExpression(parsing: item.expression)
        let from = try #require(ISO8601Text.parse(item.from, defaultTimeZone: zone))
        let next = cron.nextDate(after: from, in: zone)
        #expect(next.map { ISO8601Text.format($0, in: zone) } == item.expected)
        if let expected = item.expected {
            #expect(next == ISO8601Text.parse(expected, defaultTimeZone: zone))
        }
    }

    struct SeriesCase: Sendable, CustomTestStringConvertible {
        var expression: String
        var zone: String
        var from: String
        var expected: [String]
        init(_ expression: String, _ zone: String, from: String, _ expected: [String]) {
            (self.expression, self.zone, self.from, self.expected) = (expression, zone, from, expected)
        }
        var testDescription: String { "'\(expression)' in \(zone) after \(from), \(expected.count) times" }
    }

    @Test(arguments: [
        SeriesCase(
            "*/15 2 * * *", berlin, from: "2026-03-28T12:00:00+01:00",
            ["2026-03-29T03:00:00+02:00", "2026-03-30T02:00:00+02:00", "2026-03-30T02:15:00+02:00"]),
        SeriesCase(
            "30 * * * *", berlin, from: "2026-03-29T01:15:00+01:00",  // 00:30Z, 01:30Z, 02:30Z
            ["2026-03-29T01:30:00+01:00", "2026-03-29T03:30:00+02:00", "2026-03-29T04:30:00+02:00"]),
        SeriesCase(
            "0 * * * *", berlin, from: "2026-03-28T23:30:00+01:00",  // 23:00Z, 00:00Z, 01:00Z, 02:00Z
            [
                "2026-03-29T00:00:00+01:00", "2026-03-29T01:00:00+01:00", "2026-03-29T03:00:00+02:00",
                "2026-03-29T04:00:00+02:00",
            ]),
        SeriesCase(
            "*/30 * * * *", berlin, from: "2026-10-25T01:45:00+02:00",  // 00:00Z, 00:30Z, 01:00Z, 01:30Z, 02:00Z
            [
                "2026-10-25T02:00:00+02:00", "2026-10-25T02:30:00+02:00", "2026-10-25T02:00:00+01:00",
                "2026-10-25T02:30:00+01:00", "2026-10-25T03:00:00+01:00",
            ]),
        SeriesCase(
            "30 2 * * *", berlin, from: "2026-10-24T00:00:00+02:00",  // 10-24 00:30Z, 10-25 00:30Z, 10-26 01:30Z
            ["2026-10-24T02:30:00+02:00", "2026-10-25T02:30:00+02:00", "2026-10-26T02:30:00+01:00"]),
        SeriesCase(
            "0 0 29 2 *", utc, from: "2026-01-01T00:00:00+00:00",
            ["2028-02-29T00:00:00+00:00", "2032-02-29T00:00:00+00:00", "2036-02-29T00:00:00+00:00"]),
        // 2096 → 2104 is eight years: 2100 is not a leap year.
        SeriesCase(
            "0 0 29 2 *", utc, from: "2096-01-01T00:00:00+00:00",
            ["2096-02-29T00:00:00+00:00", "2104-02-29T00:00:00+00:00"]),
        SeriesCase("0 0 30 2 *", utc, from: "2026-01-01T00:00:00+00:00", []),
    ])
    func nextDates(_ item: SeriesCase) throws {
        let zone = try Zone.load(identifier: item.zone)
        let cron = try CronExpression(parsing: item.expression)
        let from = try #require(ISO8601Text.parse(item.from, defaultTimeZone: zone))
        let dates = cron.nextDates(after: from, count: max(item.expected.count, 1), in: zone)
        #expect(dates.map { ISO8601Text.format($0, in: zone) } == item.expected)
    }

    @Test func nextDatesCount() throws {
        let zone = try Zone.load(identifier: "UTC")
        let from = try #require(ISO8601Text.parse("2026-05-17T00:00:00+00:00", defaultTimeZone: zone))  // Sunday
        let hourly = try CronExpression(parsing: "@hourly")
        #expect(hourly.nextDates(after: from, count: 0, in: zone).isEmpty)
        #expect(hourly.nextDates(after: from, count: -3, in: zone).isEmpty)
        #expect(hourly.nextDates(after: from, count: 24 * 365, in: zone).count == 24 * 365)
        // Mon–Fri, 9 hours of 12 a day: 540 a week.
        let office = try CronExpression(parsing: "*/5 9-17 * * mon-fri")
        let week = office.nextDates(after: from, count: 541, in: zone)
        #expect(week.count == 541)
        #expect(week.first.map { ISO8601Text.format($0, in: zone) } == "2026-05-18T09:00:00+00:00")
        #expect(ISO8601Text.format(week[539], in: zone) == "2026-05-22T17:55:00+00:00")
        #expect(ISO8601Text.format(week[540], in: zone) == "2026-05-25T09:00:00+00:00")
        #expect(zip(week, week.dropFirst()).allSatisfy { $0 < $1 })
    }

    struct DayCount: Sendable, CustomTestStringConvertible {
        var expression: String
        var day: String
        var nextDay: String
        var fires: Int
        var testDescription: String { "'\(expression)' on \(day)" }
    }

    /// Fires within one Berlin calendar day: hourly jobs follow real time (23 and 25 hours); a job with a
    /// restricted hour field fires once per wall-clock hour, the missing 02:00 merging into 03:00.
    @Test(arguments: [
        DayCount(expression: "0 * * * *", day: "2026-03-29", nextDay: "2026-03-30", fires: 23),
        DayCount(expression: "0 * * * *", day: "2026-10-25", nextDay: "2026-10-26", fires: 25),
        DayCount(expression: "0 0-23 * * *", day: "2026-03-29", nextDay: "2026-03-30", fires: 23),
        DayCount(expression: "0 0-23 * * *", day: "2026-10-25", nextDay: "2026-10-26", fires: 24),
        DayCount(expression: "* 2 * * *", day: "2026-03-29", nextDay: "2026-03-30", fires: 1),
        DayCount(expression: "* 2 * * *", day: "2026-10-25", nextDay: "2026-10-26", fires: 60),
        DayCount(expression: "*/10 * * * *", day: "2026-10-25", nextDay: "2026-10-26", fires: 150),
        DayCount(expression: "0 0-23 * * *", day: "2026-05-13", nextDay: "2026-05-14", fires: 24),
    ])
    func firesOnTransitionDays(_ item: DayCount) throws {
        let zone = try Zone.load(identifier: "Europe/Berlin")
        let cron = try CronExpression(parsing: item.expression)
        let start = try #require(ISO8601Text.parse(item.day, defaultTimeZone: zone))
        let end = try #require(ISO8601Text.parse(item.nextDay, defaultTimeZone: zone))
        let fires = cron.nextDates(after: start.addingTimeInterval(-1), count: 200, in: zone).filter { $0 < end }
        #expect(fires.count == item.fires)
    }
}

/// `nextDate` against a slow, obviously-correct reference: visit every minute of a few days around a time-zone
/// transition, read its wall-clock time with Foundation's `Calendar`, and apply the rules literally — fire where
/// the fields match (once per wall-clock time unless the hour field is `*`-based), and fire at the first instant
/// after a gap if a skipped wall-clock minute matches (unless the hour field is `*`-based).
@Suite("cron next fire times against a minute-by-minute reference")
struct CronNextDateReferenceTests {
    struct Window: Sendable, CustomTestStringConvertible {
        var zone: String
        var around: Double  // a transition, seconds since 1970
        var testDescription: String { "\(zone) around \(Date(timeIntervalSince1970: around))" }
    }

    /// One instant per minute with its wall-clock fields, and the wall-clock minutes a gap skipped just before it.
    struct Minute {
        var instant: Int
        var local: Int
        var fields: Fields
        var skipped: [Fields]
        /// Whether an earlier minute showed the same wall-clock time (a repeated hour): the same for every
        /// expression, so it is worked out once per window rather than once per expression.
        var localSeenBefore: Bool
    }

    struct Fields {
        var minute, hour, day, month, weekday: Int
    }

    static let expressions: [String] = {
        let minutes = ["*", "*/15", "0", "30", "0,30", "5-10", "*/7", "45"]
        let hours = ["*", "*/2", "2", "1-3", "0", "23", "2,3", "0-23", "1"]
        let days = ["*", "*", "*", "1-7", "13", "*/2", "4,5,25-31"]
        let months = ["*", "*", "3,4,9,10,11", "mar-apr", "jan"]
        let weekdays = ["*", "*", "*", "sun", "0", "6,7", "mon-fri", "sat"]
        // A fixed pseudo-random sample of the combinations, so runs are reproducible.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func pick(_ choices: [String]) -> String {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return choices[Int((state >> 33) % UInt64(choices.count))]
        }
        var sample: [String] = []
        for _ in 0..<150 {
            sample.append(
                [pick(minutes), pick(hours), pick(days), pick(months), pick(weekdays)].joined(separator: " "))
        }
        return sample
    }()

    @Test(arguments: [
        Window(zone: "Europe/Berlin", around: 1_774_746_000),  // 2026-03-29 spring forward
        Window(zone: "Europe/Berlin", around: 1_792_890_000),  // 2026-10-25 fall back
        Window(zone: "America/New_York", around: 1_772_953_200),  // 2026-03-08
        Window(zone: "America/New_York", around: 1_793_512_800),  // 2026-11-01
        Window(zone: "America/Santiago", around: 1_775_358_000),  // 2026-04-05, Saturday 23:00 repeats
        Window(zone: "America/Santiago", around: 1_788_667_200),  // 2026-09-06, Sunday 00:00 skipped
        Window(zone: "Australia/Lord_Howe", around: 1_775_314_800),  // 2026-04-05, 30 minutes repeat
        Window(zone: "Australia/Lord_Howe", around: 1_791_041_400),  // 2026-10-04, 30 minutes skipped
        Window(zone: "Pacific/Apia", around: 1_325_239_200),  // 2011-12-30 skipped entirely
        Window(zone: "UTC", around: 1_774_746_000),
    ])
    func matchesReference(_ window: Window) async throws {
        let zone = try Zone.load(identifier: window.zone)
        let minutes = Self.minutes(around: Int(window.around), in: try #require(TimeZone(identifier: window.zone)))
        let first = minutes[1440].instant  // a day of history before the compared span, for "seen before"
        let last = minutes[minutes.count - 1].instant
        let week = Week(minutes)
        for text in Self.expressions {
            let cron = try CronExpression(parsing: text)
            let expected = Self.referenceFires(cron, in: week).filter { $0 > first }
            // The whole series, chained from the start.
            var actual: [Int] = []
            var cursor = Date(timeIntervalSince1970: Double(first))
            while let next = cron.nextDate(after: cursor, in: zone), next.timeIntervalSince1970 <= Double(last) {
                actual.append(Int(next.timeIntervalSince1970))
                cursor = next
            }
            #expect(actual == expected, "\(text) in \(window.zone)")
            // Single calls from starts that are not fire times, including ones inside repeated hours. The starts
            // rise, so the first expected fire after each is found by walking on from the one before. Wrong answers
            // are collected and expected once per expression, not in 570 `#expect`s each (cheaper in a debug build).
            var nextExpected = expected.startIndex
            var wrong: [String] = []
            for start in stride(from: first, to: last - 3 * 3600, by: 17 * 60 + 13) {
                while nextExpected < expected.endIndex, expected[nextExpected] <= start { nextExpected += 1 }
                let want = nextExpected < expected.endIndex ? expected[nextExpected] : nil
                let got = cron.nextDate(after: Date(timeIntervalSince1970: Double(start)), in: zone)
                    .map { Int($0.timeIntervalSince1970) }
                // With no fire left in the window, any answer past its end is right.
                let right = want.map { got == $0 } ?? got.map { $0 > last } ?? true
                if !right {
                    wrong.append(
                        "after \(start): \(got.map(String.init) ?? "nil"), not \(want.map(String.init) ?? "nil")")
                }
            }
            #expect(wrong.count == 0, "\(text) in \(window.zone): \(wrong.prefix(5))")
            // Seconds of CPU in all: between expressions the pool's thread goes to whatever else is waiting (an
            // end-to-end test woken by its daemon), as it would not in the middle of a synchronous test.
            await Task.yield()
        }
    }

    /// Three days either side of `center` (on whole minutes), plus a day of history, read through `Calendar`.
    static func minutes(around center: Int, in zone: TimeZone) -> [Minute] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        func fields(_ c: DateComponents) -> Fields {
            Fields(minute: c.minute!, hour: c.hour!, day: c.day!, month: c.month!, weekday: c.weekday! - 1)
        }
        let start = center / 60 * 60 - 4 * 86_400
        var result: [Minute] = []
        var previousLocal: Int?
        var seen = Set<Int>()
        for instant in stride(from: start, through: start + 7 * 86_400, by: 60) {
            let c = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .weekday], from: Date(timeIntervalSince1970: Double(instant)))
            let wall = DateComponents(year: c.year, month: c.month, day: c.day, hour: c.hour, minute: c.minute)
            let local = Int(utc.date(from: wall)!.timeIntervalSince1970)
            var skipped: [Fields] = []
            if let previousLocal, local - previousLocal > 60 {
                for gone in stride(from: previousLocal + 60, to: local, by: 60) {
                    skipped.append(
                        fields(
                            utc.dateComponents(
                                [.month, .day, .hour, .minute, .weekday],
                                from: Date(timeIntervalSince1970: Double(gone)))
                        ))
                }
            }
            let seenBefore = !seen.insert(local).inserted
            result.append(
                Minute(
                    instant: instant, local: local, fields: fields(c), skipped: skipped, localSeenBefore: seenBefore))
            previousLocal = local
        }
        return result
    }

    /// The window's minutes as flat arrays, made once per window and read for each of its 150 expressions: a
    /// debug build copies a `Minute` (and retains its `skipped` array) on every read of one.
    struct Week {
        var instants: [Int] = []
        var minuteFields: [Int] = []
        var seenBefore: [Bool] = []
        /// Consecutive minutes with the same hour, day, month and weekday: an expression whose hour, month or day
        /// fields do not match one has no fire in it but after a gap, so the loop skips it whole.
        var runs: [Run] = []
        /// The indices of minutes that follow a gap, with the wall-clock minutes the gap skipped.
        var gaps: [(index: Int, skipped: [Fields])] = []

        struct Run {
            var indices: Range<Int>
            var hour, day, month, weekday: Int
        }

        init(_ minutes: [Minute]) {
            for (index, minute) in minutes.enumerated() {
                let f = minute.fields
                instants.append(minute.instant)
                minuteFields.append(f.minute)
                seenBefore.append(minute.localSeenBefore)
                if !minute.skipped.isEmpty { gaps.append((index, minute.skipped)) }
                if let last = runs.last, last.hour == f.hour, last.day == f.day, last.month == f.month,
                    last.weekday == f.weekday
                {
                    runs[runs.count - 1].indices = last.indices.lowerBound..<index + 1
                } else {
                    runs.append(
                        Run(indices: index..<index + 1, hour: f.hour, day: f.day, month: f.month, weekday: f.weekday))
                }
            }
        }
    }

    static func referenceFires(_ cron: CronExpression, in week: Week) -> [Int] {
        // What the expression answers for every value a field can take, asked once and kept as bits (bit n: value
        // n matches; a day's bits are its weekdays): the loops below then look them up with a shift and a mask, 150
        // times per window.
        func bits(_ values: ClosedRange<Int>, _ matches: (Int) -> Bool) -> UInt64 {
            var bits: UInt64 = 0
            for value in values where matches(value) { bits |= 1 << UInt64(value) }
            return bits
        }
        let minuteBits = bits(0...59) { cron.minutes.contains($0) }
        let hourBits = bits(0...23) { cron.hours.contains($0) }
        let monthBits = bits(0...12) { cron.months.contains($0) }
        let weekdayBitsByDay = (0...31).map { day in bits(0...6) { cron.matchesDay(dayOfMonth: day, weekday: $0) } }
        func matchesHour(hour: Int, day: Int, month: Int, weekday: Int) -> Bool {
            hourBits >> UInt64(hour) & 1 != 0 && monthBits >> UInt64(month) & 1 != 0
                && weekdayBitsByDay[day] >> UInt64(weekday) & 1 != 0
        }
        func matches(_ f: Fields) -> Bool {
            minuteBits >> UInt64(f.minute) & 1 != 0
                && matchesHour(hour: f.hour, day: f.day, month: f.month, weekday: f.weekday)
        }
        let wildHours = !cron.hours.isRestricted
        // The minutes whose wall-clock fields match (the first time they are shown, unless the hours are wild), in
        // order. The arrays are read from locals: reading `week.minuteFields[index]` copied the whole `Week` in a
        // debug build.
        let (minuteFields, seenBefore) = (week.minuteFields, week.seenBefore)
        var fires: [Int] = []
        for run in week.runs where matchesHour(hour: run.hour, day: run.day, month: run.month, weekday: run.weekday) {
            for index in run.indices
            where minuteBits >> UInt64(minuteFields[index]) & 1 != 0 && (wildHours || !seenBefore[index]) {
                fires.append(index)
            }
        }
        // ...and, unless the hours are wild, the first minute after a gap that skipped a matching one.
        let afterGaps = wildHours ? [] : week.gaps.filter { $0.skipped.contains(where: matches) }.map(\.index)
        if !afterGaps.isEmpty { fires = Set(fires + afterGaps).sorted() }
        return fires.map { week.instants[$0] }
    }
}

@Suite("cron next fire times: starts spread over a year")
struct CronNextDateSpreadTests {
    /// Starts about 29 hours apart cross weekends, nights and both DST transitions: each answer is a time the
    /// expression names, at most one weekend after its start. (What 10,000 of them cost is widgetd-bench's to
    /// measure.)
    @Test(arguments: ["UTC", "Europe/Berlin"])
    func everyAnswerIsAFireTimeAfterItsStart(_ zoneName: String) throws {
        let zone = try Zone.load(identifier: zoneName)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zoneName))
        let cron = try CronExpression(parsing: "*/5 9-17 * * mon-fri")
        var start = try #require(ISO8601Text.parse("2026-01-01T00:00:00Z", defaultTimeZone: zone))
        for _ in 0..<300 {
            start = start.addingTimeInterval(3_163 * 33)
            let next = try #require(cron.nextDate(after: start, in: zone), "after \(start)")
            let fields = calendar.dateComponents([.minute, .hour, .weekday, .second], from: next)
            #expect(next > start && next.timeIntervalSince(start) < 3 * 86_400, "after \(start): \(next)")
            #expect(fields.second == 0 && fields.minute! % 5 == 0, "after \(start): \(next)")
            #expect((9...17).contains(fields.hour!) && (2...6).contains(fields.weekday!), "after \(start): \(next)")
        }
    }
}
