import Foundation
import Testing

/// `widgetd cron` against expressions whose next times are known.
@Suite("widgetd cron")
struct CronCommandTests {
    @Test(arguments: [
        (
            "*/15 9-17 * * mon-fri", "2026-11-27T16:50:00+01:00", "Europe/Berlin",
            [
                "2026-11-27T17:00:00+01:00", "2026-11-27T17:15:00+01:00", "2026-11-27T17:30:00+01:00",
                "2026-11-27T17:45:00+01:00", "2026-11-30T09:00:00+01:00",
            ]
        ),
        (
            "@daily", "2026-11-29T19:30:00+01:00", "Europe/Berlin",
            [
                "2026-11-30T00:00:00+01:00", "2026-12-01T00:00:00+01:00", "2026-12-02T00:00:00+01:00",
                "2026-12-03T00:00:00+01:00", "2026-12-04T00:00:00+01:00",
            ]
        ),
        (
            "30 2 * * *", "2026-03-28T12:00:00+01:00", "Europe/Berlin",
            [
                "2026-03-29T03:00:00+02:00", "2026-03-30T02:30:00+02:00", "2026-03-31T02:30:00+02:00",
                "2026-04-01T02:30:00+02:00", "2026-04-02T02:30:00+02:00",
            ]
        ),
        (
            "0 0 13 * fri", "2026-11-01T00:00:00+00:00", "UTC",
            [
                "2026-11-06T00:00:00+00:00", "2026-11-13T00:00:00+00:00", "2026-11-20T00:00:00+00:00",
                "2026-11-27T00:00:00+00:00", "2026-12-04T00:00:00+00:00",
            ]
        ),
        (
            "0 12 29 feb *", "2026-01-01T00:00:00-05:00", "America/New_York",
            [
                "2028-02-29T12:00:00-05:00", "2032-02-29T12:00:00-05:00", "2036-02-29T12:00:00-05:00",
                "2040-02-29T12:00:00-05:00", "2044-02-29T12:00:00-05:00",
            ]
        ),
    ])
    func printsTheNextFireTimes(_ expression: String, _ from: String, _ zone: String, _ expected: [String]) throws {
        let result = try runWidgetd(["cron", expression, "--from", from, "--tz", zone])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == expected.joined(separator: "\n") + "\n")
    }

    /// Issue 15: a fire inside the spring-forward gap was lost when the search started in the gap's last second
    /// before it (it printed 2026-03-30).
    @Test func theGapFiresWhenTheSearchStartsInTheSecondBeforeIt() throws {
        let result = try runWidgetd([
            "cron", "30 2 * * *", "--from", "2026-03-29T00:59:59Z", "--tz", "Europe/Berlin", "--count", "1",
        ])
        #expect(result.status == 0)
        #expect(result.stdout == "2026-03-29T03:00:00+02:00\n")
    }

    /// Issue 15: years past 9999 printed as `invalid date`.
    @Test func yearsPastNineThousandNineHundredNinetyNinePrint() throws {
        let result = try runWidgetd([
            "cron", "@yearly", "--from", "9999-06-01T00:00:00Z", "--tz", "Asia/Tokyo", "--count", "2",
        ])
        #expect(result.status == 0)
        #expect(result.stdout == "10000-01-01T00:00:00+09:00\n10001-01-01T00:00:00+09:00\n")
        // What it prints reads back, with ISO 8601's + for a long year or without.
        for from in ["10000-01-01T00:00:00+09:00", "+10000-01-01T00:00:00+09:00"] {
            let next = try runWidgetd(["cron", "@yearly", "--from", from, "--tz", "Asia/Tokyo", "--count", "1"])
            #expect(next.stdout == "10001-01-01T00:00:00+09:00\n", "\(next.stderr)")
        }
    }

    /// Past the last date the clock holds nothing fires: an error, worded as every other.
    @Test func noFireTimeLeftIsAnError() throws {
        let result = try runWidgetd(["cron", "@hourly", "--from", "999999999-01-01T00:00:00Z", "--tz", "UTC"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "widgetd: error: no further fire times within 8 years\n", "\(result.stderr)")
    }

    @Test func countAndFiveSeparateWords() throws {
        let result = try runWidgetd([
            "cron", "0", "*", "*", "*", "*", "--count", "2", "--from", "2026-11-29T19:30:00+00:00", "--tz", "UTC",
        ])
        #expect(result.stdout == "2026-11-29T20:00:00+00:00\n2026-11-29T21:00:00+00:00\n")
    }

    @Test func aBadExpressionSaysWhichFieldAndWhy() throws {
        let result = try runWidgetd(["cron", "0 25 * * *"])
        #expect(result.status == 64)
        #expect(
            result.stderr == """
                widgetd: error: bad cron expression '0 25 * * *': hour field: 25 is out of range 0-23
                  0 25 * * *
                    ^
                Usage: widgetd cron EXPR [--count N] [--from ISO8601] [--tz ZONE]
                See 'widgetd help cron'.

                """)
    }

    /// `TZ` is read as glibc and `date` read it: `GMT+5` is a POSIX rule, five hours west of Greenwich. It was read
    /// as ICU's custom name (east), which `--tz` and `timezone:` take, and every local time was ten hours off.
    @Test(arguments: [("GMT+5", "-05:00"), ("UTC-03:30", "+03:30"), ("EST5EDT", "-04:00"), ("Etc/GMT+5", "-05:00")])
    func theLocalZoneFromTZIsReadAsTheCLibraryReadsIt(_ tz: String, _ offset: String) throws {
        let result = try runWidgetd(
            ["cron", "0 12 * * *", "--from", "2026-07-01T00:00:00Z", "--count", "1"], environment: ["TZ": tz])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "2026-07-01T12:00:00\(offset)\n")
    }

    /// `TZ=localtime` names the system's zone; it made `Zone.local()` call itself for ever.
    @Test func tzLocaltimeIsTheSystemsZone() throws {
        let result = try runWidgetd(
            ["cron", "0 12 * * *", "--from", "2026-07-01T00:00:00Z", "--count", "1"], environment: ["TZ": "localtime"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("2026-07-0"))
    }

    @Test func anUnknownZoneIsAUsageError() throws {
        let result = try runWidgetd(["cron", "@hourly", "--tz", "Europe/Berln"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "widgetd: error: Unknown time zone 'Europe/Berln'; did you mean 'Europe/Berlin'?\nUsage: widgetd cron"))
        // With nothing close to suggest, the sentence ends in a full stop.
        let far = try runWidgetd(["cron", "@hourly", "--tz", "Nowhere/Atall"])
        #expect(far.status == 64)
        #expect(far.stderr.hasPrefix("widgetd: error: Unknown time zone 'Nowhere/Atall'.\nUsage: widgetd cron"))
    }
}
