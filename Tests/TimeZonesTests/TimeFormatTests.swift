import Foundation
import Testing
import TimeZones
import Timelines

/// `TimeFormat` against the current `Strftime` (Scheduler) (Foundation's calendar and ICU), conversion by
/// conversion.
@Suite struct TimeFormatTests {
    /// Instants around the edges: leap days, year ends, ISO weeks, noon and midnight, DST changes, 1970.
    static let instants: [Int] = [
        0, 951_782_400, 951_868_799, 1_078_012_800, 1_230_767_999, 1_230_768_000, 1_704_067_199, 1_704_067_200,
        1_709_164_800, 1_735_689_599, 1_774_746_000, 1_774_745_999, 1_792_890_000, 1_792_893_600, 1_798_761_599,
        1_798_761_600, 2_147_483_647, 2_208_988_800,
    ]
    /// Zones with whole, half and quarter hour offsets, both hemispheres, and a 30-minute DST (Lord Howe).
    static let zones = [
        "UTC", "Europe/Berlin", "America/New_York", "America/St_Johns", "Asia/Kolkata", "Asia/Kathmandu",
        "Australia/Lord_Howe", "Pacific/Chatham", "Pacific/Kiritimati", "America/Los_Angeles", "Europe/London",
    ]
    /// Zones whose ICU abbreviations are tzdata's, so that `%Z` can be compared too. Elsewhere ICU writes its own
    /// names ("GMT+5:30" for Asia/Kolkata where tzdata says "IST"); `ZoneDifferentialTests` checks ours there.
    static let zonesWithTheSameAbbreviations: Set<String> = [
        "UTC", "Europe/Berlin", "America/New_York", "America/Los_Angeles",
    ]

    @Test(arguments: Strftime.conversions.sorted())
    func conversionMatchesTheClockKind(conversion: Character) throws {
        #expect(TimeFormat.conversions.contains(conversion))
        if conversion == "Z" { return }  // compared in `abbreviationsMatchWhereICUAgrees`
        let format = "<%\(conversion)>"
        for identifier in Self.zones {
            let zone = try Zone.load(identifier: identifier)
            let foundation = try #require(TimeZone(identifier: identifier))
            for instant in Self.instants {
                let expected =
                    conversion == "j"
                    ? Self.dayOfYear(instant, foundation) : Self.clockKindText(format, instant, foundation)
                #expect(
                    TimeFormat(format).string(at: instant, in: zone) == expected,
                    "\(format) at \(instant) in \(identifier)")
            }
        }
    }

    @Test func abbreviationsMatchWhereICUAgrees() throws {
        for identifier in Self.zonesWithTheSameAbbreviations {
            let zone = try Zone.load(identifier: identifier)
            let foundation = try #require(TimeZone(identifier: identifier))
            for instant in Self.instants {
                #expect(
                    TimeFormat("%Z %z").string(at: instant, in: zone)
                        == Self.clockKindText("%Z %z", instant, foundation), "at \(instant) in \(identifier)")
            }
        }
    }

    @Test func mixedFormatsAndStrayPercents() throws {
        let zone = try Zone.load(identifier: "Europe/Berlin")
        let foundation = try #require(TimeZone(identifier: "Europe/Berlin"))
        for format in ["%a %e %b %Y, %H:%M:%S %Z", "%F %T %z", "100%%", "%q%", "%", "plain", "%D|%R|%I%p|%l%P"] {
            for instant in Self.instants {
                #expect(
                    TimeFormat(format).string(at: instant, in: zone) == Self.clockKindText(format, instant, foundation),
                    "\(format) at \(instant)")
            }
        }
    }

    @Test func yearsPastNineThousandNineHundredNinetyNineAreNumbers() throws {
        let zone = try Zone.load(identifier: "Europe/Berlin")
        // 10000-01-01T00:00:00Z: 8,000 years (20 whole 400-year cycles) after 2000-01-01, also a Saturday.
        #expect(
            TimeFormat("%Y-%m-%d %T %Z %z %a %j %y %D").string(at: 253_402_300_800, in: zone)
                == "10000-01-01 01:00:00 CET +0100 Sat 001 00 01/01/00")
        // Summer time from the footer rule, in year 12026 (the last Sunday of March is the 29th, as in 2026).
        let summer = CivilDateTime(year: 12026, month: 7, day: 1, hour: 12).localSeconds - 7200
        #expect(TimeFormat("%F %T %Z").string(at: summer, in: zone) == "12026-07-01 12:00:00 CEST")
        let far = CivilDateTime(year: 292_277, month: 12, day: 31, hour: 23, minute: 59, second: 59)
        #expect(TimeFormat("%F %T").string(from: far, type: zone.offset(at: 0)) == "292277-12-31 23:59:59")
    }

    /// `<%j>` from Foundation's calendar set to the zone. The clock kind's `Strftime.fields` asks a calendar in
    /// the process's zone (`ordinality(of:in:for:)` ignores the zone it is given), so its `%j` is a day off near
    /// midnight in any other zone; that is its bug, left for the switch to this target to remove.
    static func dayOfYear(_ instant: Int, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let day = calendar.ordinality(of: .day, in: .year, for: Date(timeIntervalSince1970: Double(instant))) ?? 0
        return "<" + String(repeating: "0", count: 3 - String(day).count) + String(day) + ">"
    }

    static func clockKindText(_ format: String, _ instant: Int, _ zone: TimeZone) -> String {
        let fields = Strftime.fields(
            of: Date(timeIntervalSince1970: Double(instant)), in: zone, calendar: Calendar(identifier: .gregorian))
        return Strftime(format: format).string(from: fields)
    }
}
