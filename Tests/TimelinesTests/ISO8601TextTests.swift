import Foundation
import Testing
import TimeZones
import Timelines

/// Reference instants, seconds since 1970 (2026-01-01T00:00Z is 1_767_225_600; days are 86,400 s):
/// 2026-11-29T18:30Z = 1_767_225_600 + 332 days + 66,600 s = 1_795_977_000;
/// 2026-07-04T16:00Z = 1_767_225_600 + 184 days + 57,600 s = 1_783_180_800.
@Suite("ISO 8601 text")
struct ISO8601TextTests {
    static let november: TimeInterval = 1_795_977_000
    static let july: TimeInterval = 1_783_180_800

    struct FormatCase: Sendable, CustomTestStringConvertible {
        var instant: TimeInterval
        var zone: String
        var text: String
        var testDescription: String { "\(instant) in \(zone)" }
    }

    @Test(arguments: [
        FormatCase(instant: november, zone: "Europe/Berlin", text: "2026-11-29T19:30:00+01:00"),
        FormatCase(instant: november, zone: "UTC", text: "2026-11-29T18:30:00+00:00"),
        FormatCase(instant: november, zone: "Europe/London", text: "2026-11-29T18:30:00+00:00"),
        FormatCase(instant: november, zone: "Asia/Kolkata", text: "2026-11-30T00:00:00+05:30"),
        FormatCase(instant: november, zone: "Asia/Kathmandu", text: "2026-11-30T00:15:00+05:45"),
        FormatCase(instant: november, zone: "America/New_York", text: "2026-11-29T13:30:00-05:00"),
        FormatCase(instant: november, zone: "America/St_Johns", text: "2026-11-29T15:00:00-03:30"),
        FormatCase(instant: july, zone: "America/New_York", text: "2026-07-04T12:00:00-04:00"),
        FormatCase(instant: july, zone: "Europe/Berlin", text: "2026-07-04T18:00:00+02:00"),
        FormatCase(instant: november + 0.999, zone: "UTC", text: "2026-11-29T18:30:00+00:00"),  // fractions dropped
        FormatCase(instant: -1, zone: "UTC", text: "1969-12-31T23:59:59+00:00"),
        // Monrovia kept local mean time, -00:44:30, until 1972: 1938-04-24T22:13:20Z is 21:28:50 there.
        FormatCase(instant: -1_000_000_000, zone: "Africa/Monrovia", text: "1938-04-24T21:28:50-00:44:30"),
    ])
    func format(_ item: FormatCase) throws {
        let zone = try Zone.load(identifier: item.zone)
        #expect(ISO8601Text.format(Date(timeIntervalSince1970: item.instant), in: zone) == item.text)
    }

    @Test func fixedOffsetZones() throws {
        let date = Date(timeIntervalSince1970: Self.november)
        #expect(ISO8601Text.format(date, in: Zone(fixedOffset: 0)) == "2026-11-29T18:30:00+00:00")
        #expect(
            ISO8601Text.format(date, in: Zone(fixedOffset: -4 * 3600))
                == "2026-11-29T14:30:00-04:00")
        #expect(
            ISO8601Text.format(date, in: Zone(fixedOffset: 19_800)) == "2026-11-30T00:00:00+05:30")
    }

    struct ParseCase: Sendable, CustomTestStringConvertible {
        var text: String
        var instant: TimeInterval?
        var testDescription: String { "'\(text)'" }
    }

    /// Texts without an offset are read in Europe/Berlin.
    @Test(arguments: [
        ParseCase(text: "2026-11-29T19:30:00+01:00", instant: november),
        ParseCase(text: "2026-11-29T18:30:00Z", instant: november),
        ParseCase(text: "2026-11-29T18:30:00z", instant: november),
        ParseCase(text: "2026-11-29T18:30:00+00:00", instant: november),
        ParseCase(text: "2026-11-29T13:30:00-05:00", instant: november),
        ParseCase(text: "2026-11-30T00:00:00+05:30", instant: november),
        ParseCase(text: "2026-11-29T19:30:00+0100", instant: november),
        ParseCase(text: "2026-11-29T19:30:00+01", instant: november),
        ParseCase(text: "2026-11-29t19:30:00+01:00", instant: november),
        ParseCase(text: "2026-11-29 19:30:00+01:00", instant: november),
        ParseCase(text: "  2026-11-29T19:30:00+01:00\n", instant: november),
        ParseCase(text: "2026-11-29T18:30:00.250Z", instant: november + 0.25),
        ParseCase(text: "1938-04-24T21:28:50-00:44:30", instant: -1_000_000_000),
        // Local time in the default zone.
        ParseCase(text: "2026-11-29T19:30:00", instant: november),
        ParseCase(text: "2026-11-29T19:30", instant: november),
        ParseCase(text: "2026-11-29 19:30", instant: november),
        ParseCase(text: "2026-11-29", instant: november - 66_600 - 3_600),  // midnight CET = 11-28T23:00Z
        ParseCase(text: "2026-07-04T18:00", instant: july),  // CEST
        ParseCase(text: "2028-02-29", instant: 1_835_391_600),  // 2028-02-28T23:00Z
        // 2026-03-29T02:30 does not exist in Berlin: read with CET, the offset before the gap: 01:30Z.
        ParseCase(text: "2026-03-29T02:30", instant: 1_774_747_800),
        // 2026-10-25T02:30 happens twice in Berlin: the first, CEST: 00:30Z.
        ParseCase(text: "2026-10-25T02:30", instant: 1_792_888_200),
        ParseCase(text: "2026-10-25T02:30+01:00", instant: 1_792_891_800),
        // Refused.
        ParseCase(text: "", instant: nil),
        ParseCase(text: "2026-02-29", instant: nil),
        ParseCase(text: "2026-13-01", instant: nil),
        ParseCase(text: "2026-00-10", instant: nil),
        ParseCase(text: "2026-11-31", instant: nil),
        ParseCase(text: "2026-11-00", instant: nil),
        ParseCase(text: "2026-11-29T24:00", instant: nil),
        ParseCase(text: "2026-11-29T19:60", instant: nil),
        ParseCase(text: "2026-11-29T19:30:60", instant: nil),
        ParseCase(text: "2026-11-29T19", instant: nil),
        ParseCase(text: "2026-11-29T", instant: nil),
        ParseCase(text: "2026-11-29T19:30:00+1:00", instant: nil),
        ParseCase(text: "2026-11-29T19:30:00+25:00", instant: nil),
        ParseCase(text: "2026-11-29T19:30:00+01:60", instant: nil),
        ParseCase(text: "2026-11-29T19:30:00.Z", instant: nil),
        ParseCase(text: "2026-11-29T19:30:00 junk", instant: nil),
        ParseCase(text: "2026-11-29Z", instant: nil),
        ParseCase(text: "26-11-29", instant: nil),
        ParseCase(text: "2026/11/29", instant: nil),
        ParseCase(text: "２０２６-11-29", instant: nil),
    ])
    func parse(_ item: ParseCase) throws {
        let berlin = try Zone.load(identifier: "Europe/Berlin")
        let parsed = ISO8601Text.parse(item.text, defaultTimeZone: berlin)
        #expect(parsed?.timeIntervalSince1970 == item.instant)
    }

    /// Every formatted instant reads back as itself, whatever zone reads it — including both 02:30s of a
    /// fall-back night, which differ only in their offsets.
    @Test(arguments: [
        "UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Africa/Monrovia",
    ])
    func roundTrips(_ zoneName: String) throws {
        let zone = try Zone.load(identifier: zoneName)
        let reader = try Zone.load(identifier: "Pacific/Auckland")
        var instants: [TimeInterval] = [0, -1, Self.november, Self.july, 1_792_888_200, 1_792_891_800, -1_000_000_000]
        instants += stride(from: 1_767_225_600.0, to: 1_798_761_600, by: 86_400 * 3 + 3_607)  // 2026, varied times
        for instant in instants {
            let date = Date(timeIntervalSince1970: instant)
            let text = ISO8601Text.format(date, in: zone)
            #expect(ISO8601Text.parse(text, defaultTimeZone: reader) == date, "\(text)")
        }
    }

    /// Issue 15: years past 9999 printed as `invalid date`. They are written with all their digits, and no date,
    /// however far, traps or prints anything but a date.
    @Test func yearsPastNineThousandNineHundredNinetyNine() throws {
        let year10000 = Date(timeIntervalSince1970: 253_402_300_800)
        #expect(ISO8601Text.format(year10000, in: .utc) == "10000-01-01T00:00:00+00:00")
        #expect(
            ISO8601Text.format(year10000, in: try Zone.load(identifier: "Asia/Tokyo")) == "10000-01-01T09:00:00+09:00")
        // Summer time past tzdata's table, from the zone's rule: 12026-07-01 in Berlin.
        let summer = Date(timeIntervalSince1970: Double(CivilDateTime(year: 12026, month: 7, day: 1).localSeconds))
        #expect(
            ISO8601Text.format(summer, in: try Zone.load(identifier: "Europe/Berlin")) == "12026-07-01T02:00:00+02:00")
        for far in [1e12, 1e18, 1e300, .infinity, -.infinity, .nan, -1e12] {
            let text = ISO8601Text.format(Date(timeIntervalSince1970: far), in: .utc)
            #expect(text.hasSuffix("+00:00") && !text.contains("invalid"), "\(far): \(text)")
        }
    }

    @Test func fallBackHourShowsBothOffsets() throws {
        let berlin = try Zone.load(identifier: "Europe/Berlin")
        let first = Date(timeIntervalSince1970: 1_792_888_200)
        let second = Date(timeIntervalSince1970: 1_792_891_800)
        #expect(ISO8601Text.format(first, in: berlin) == "2026-10-25T02:30:00+02:00")
        #expect(ISO8601Text.format(second, in: berlin) == "2026-10-25T02:30:00+01:00")
    }

    @Test func isSafeAcrossTasks() async throws {
        let zone = try Zone.load(identifier: "Europe/Berlin")
        let texts = await withTaskGroup(of: String.self) { group in
            for offset in 0..<64 {
                group.addTask {
                    var last = ""
                    for step in 0..<200 {
                        let date = Date(timeIntervalSince1970: Self.november + Double(offset * 200 + step) * 60)
                        last = ISO8601Text.format(date, in: zone)
                        precondition(ISO8601Text.parse(last, defaultTimeZone: zone) == date)
                    }
                    return last
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(texts).count == 64)
    }
}
