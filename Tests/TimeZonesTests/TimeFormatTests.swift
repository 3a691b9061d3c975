import Foundation
import Testing

@testable import TimeZones

/// `TimeFormat` against Python's `strftime` (glibc's, in the C locale, on a `datetime` from `zoneinfo`, which reads
/// the same zoneinfo files), conversion by conversion, `%Z` and `%j` included.
@Suite struct TimeFormatTests {
    /// Instants around the edges: leap days, year ends, ISO weeks, noon and midnight, DST changes, 1970.
    static let instants: [Int] = [
        0, 951_782_400, 951_868_799, 1_078_012_800, 1_230_767_999, 1_230_768_000, 1_704_067_199, 1_704_067_200,
        1_709_164_800, 1_735_689_599, 1_774_746_000, 1_774_745_999, 1_792_890_000, 1_792_893_600, 1_798_761_599,
        1_798_761_600, 2_147_483_647, 2_208_988_800,
    ]
    /// Zones with whole, half and quarter hour offsets, both hemispheres, a 30-minute DST (Lord Howe), and
    /// abbreviations that ICU writes otherwise (`IST`, `JST`, `+0545`).
    static let zones = [
        "UTC", "Europe/Berlin", "America/New_York", "America/St_Johns", "Asia/Kolkata", "Asia/Kathmandu",
        "Australia/Lord_Howe", "Pacific/Chatham", "Pacific/Kiritimati", "America/Los_Angeles", "Europe/London",
        "Asia/Tokyo", "Asia/Dubai",
    ]

    @Test func everyConversionMatchesPythonsStrftime() throws {
        var queries: [(zone: String, instant: Int, format: String)] = []
        for conversion in TimeFormat.conversions.sorted() {
            for zone in Self.zones {
                for instant in Self.instants { queries.append((zone, instant, "<%\(conversion)>")) }
            }
        }
        let expected = try Self.pythonStrftime(queries)
        try #require(expected.count == queries.count)
        for (query, python) in zip(queries, expected) {
            let zone = try Zone.load(identifier: query.zone)
            #expect(
                TimeFormat(query.format).string(at: query.instant, in: zone) == python,
                "\(query.format) at \(query.instant) in \(query.zone)")
        }
    }

    @Test func mixedFormatsMatchPythonsStrftime() throws {
        let formats = ["%a %e %b %Y, %H:%M:%S %Z", "%F %T %z", "plain", "%D|%R|%I%p|%l%P", "%A %d %B %y %j %u %w"]
        var queries: [(zone: String, instant: Int, format: String)] = []
        for format in formats {
            for instant in Self.instants { queries.append(("Europe/Berlin", instant, format)) }
        }
        let expected = try Self.pythonStrftime(queries)
        try #require(expected.count == queries.count)
        let zone = try Zone.load(identifier: "Europe/Berlin")
        for (query, python) in zip(queries, expected) {
            #expect(
                TimeFormat(query.format).string(at: query.instant, in: zone) == python,
                "\(query.format) at \(query.instant)")
        }
    }

    /// What glibc's `strftime` writes for these too (checked with Python), fixed here so that no tool's handling of
    /// a malformed format decides the test.
    @Test func strayPercentsAreWrittenAsTheyStand() throws {
        let zone = try Zone.load(identifier: "Europe/Berlin")
        let cases = ["100%%": "100%", "%q%": "%q%", "%": "%", "50% off": "50% off", "%%%H": "%01"]
        for (format, text) in cases {
            #expect(TimeFormat(format).string(at: 0, in: zone) == text, "\(format)")
        }
    }

    @Test func tzdataAbbreviations() throws {
        // 2026-03-29T00:59:59Z, a second before Berlin's spring forward.
        let instant = 1_774_745_999
        let expected = [
            "Asia/Tokyo": "JST +0900", "Asia/Dubai": "+04 +0400", "Asia/Kolkata": "IST +0530",
            "Europe/Berlin": "CET +0100", "America/New_York": "EDT -0400", "UTC": "UTC +0000",
        ]
        for (identifier, text) in expected {
            #expect(TimeFormat("%Z %z").string(at: instant, in: try Zone.load(identifier: identifier)) == text)
        }
        #expect(TimeFormat("%Z").string(at: instant + 1, in: try Zone.load(identifier: "Europe/Berlin")) == "CEST")
    }

    /// An ASCII format is written byte by byte (`asciiString`), any other by Character (`characterString`): both give
    /// the same text for every ASCII format, stray and unknown conversions, numbers of every width and negative years
    /// included; a format with a byte that is not ASCII goes by Character, where a combining mark after `%` makes one
    /// Character with it and is written as it stands.
    @Test func asciiFormatsAreWrittenByteByByteAsByCharacter() throws {
        let formats = [
            "%T", "%H:%M", "%a %e %b %Y, %H:%M:%S %Z", "%F %T %z", "%D|%R|%I%p|%l%P|%k", "%A %d %B %y %j %u %w %h",
            "%", "%%", "%%%", "100%% %q% %", "tab%tnew%nline\r\n%\r\nend", "plain", "", "%Y%m%d%H%M%S",
        ]
        let zones = try ["Europe/Berlin", "America/St_Johns", "Asia/Kathmandu", "UTC"].map {
            try Zone.load(identifier: $0)
        }
        let times = [
            CivilDateTime(year: 2026, month: 3, day: 29, hour: 1, minute: 59, second: 59),
            CivilDateTime(year: -44, month: 3, day: 15, hour: 12),
            CivilDateTime(year: 9, month: 1, day: 1),
            CivilDateTime(year: 292_277, month: 12, day: 31, hour: 23, minute: 59, second: 59),
            CivilDateTime(year: -292_277, month: 1, day: 2, hour: 0, minute: 0, second: 7),
        ]
        for format in formats {
            for zone in zones {
                for time in times {
                    let type = zone.offset(at: 0)
                    let bytes = try #require(TimeFormat(format).asciiString(from: time, type: type), "\(format)")
                    #expect(bytes == TimeFormat(format).characterString(from: time, type: type), "\(format) at \(time)")
                }
            }
        }
        let type = zones[0].offset(at: 0)
        let time = times[0]
        for format in ["%H\u{301}:%M", "%\u{301}%T", "%%\u{301}", "é %T", "%T 🕐"] {
            #expect(TimeFormat(format).asciiString(from: time, type: type) == nil, "\(format)")
            #expect(
                TimeFormat(format).string(from: time, type: type)
                    == TimeFormat(format).characterString(from: time, type: type), "\(format)")
        }
        #expect(TimeFormat("%%\u{301}").string(from: time, type: type) == "%%\u{301}")
    }

    @Test func writesSecondsReadsTheFormatAsTheFormatterDoes() {
        #expect(TimeFormat("%H:%M:%S").writesSeconds)
        #expect(TimeFormat("%T").writesSeconds)
        #expect(!TimeFormat("%H:%M").writesSeconds)
        #expect(!TimeFormat("100%%S").writesSeconds)
        #expect(TimeFormat("%%%S").writesSeconds)
    }

    @Test func yearsPastNineThousandNineHundredNinetyNineAreNumbers() throws {
        let zone = try Zone.load(identifier: "Europe/Berlin")
        // 10000-01-01T00:00:00Z: 8,000 years (20 whole 400-year cycles) after 2000-01-01, also a Saturday.
        #expect(
            TimeFormat("%Y-%m-%d %T %Z %z %a %j %y %D").string(at: 253_402_300_800, in: zone)
                == "10000-01-01 01:00:00 CET +0100 Sat 001 00 01/01/00")
        // Summer time from the footer rule, in year 12026 (the last Sunday of March is the 29th, as in 2026).
        let summer = CivilDateTime(year: 12026, month: 7, day: 1, hour: 12).localSeconds - 7200
        // `%F` is glibc's `%+4Y-%m-%d`: past four digits the year carries a `+`, as `date +%F` writes it; `%Y` none.
        #expect(TimeFormat("%F %T %Z").string(at: summer, in: zone) == "+12026-07-01 12:00:00 CEST")
        #expect(TimeFormat("%Y").string(at: summer, in: zone) == "12026")
        let far = CivilDateTime(year: 292_277, month: 12, day: 31, hour: 23, minute: 59, second: 59)
        #expect(TimeFormat("%F %T").string(from: far, type: zone.offset(at: 0)) == "+292277-12-31 23:59:59")
    }

    /// Python's `datetime.fromtimestamp(instant, ZoneInfo(zone)).strftime(format)` for each query, from one process;
    /// queries and answers go as JSON, since formats may write newlines and tabs.
    static func pythonStrftime(_ queries: [(zone: String, instant: Int, format: String)]) throws -> [String] {
        let script = """
            import sys, json, datetime, zoneinfo
            zones = {}
            out = []
            for name, instant, form in json.load(sys.stdin):
                zone = zones.get(name) or zones.setdefault(name, zoneinfo.ZoneInfo(name))
                out.append(datetime.datetime.fromtimestamp(instant, zone).strftime(form))
            json.dump(out, sys.stdout)
            """
        let request = try JSONSerialization.data(withJSONObject: queries.map { [$0.zone, $0.instant, $0.format] })
        let data = try runPython(
            script, input: request,
            environment: ["PYTHONTZPATH": ZoneinfoCatalog.directory, "PATH": "/usr/bin:/bin", "LC_ALL": "C"])
        return try JSONSerialization.jsonObject(with: data) as? [String] ?? []
    }
}
