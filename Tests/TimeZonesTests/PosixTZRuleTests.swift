import Testing
import TimeZones

/// The POSIX TZ rules of TZif footers: every form POSIX and RFC 8536 allow, and clear errors for the rest.
@Suite struct PosixTZRuleTests {
    static func instant(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Int {
        CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute).localSeconds
    }

    @Test func europeanRule() throws {
        let rule = try PosixTZRule(parsing: "CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(rule.standard == LocalTimeType(utcOffset: 3600, isDST: false, abbreviation: "CET"))
        #expect(rule.daylight?.type == LocalTimeType(utcOffset: 7200, isDST: true, abbreviation: "CEST"))
        // 2026: the last Sundays are March 29 (02:00 CET = 01:00Z) and October 25 (03:00 CEST = 01:00Z).
        #expect(rule.nextChange(after: Self.instant(2026, 1, 1, 0)) == Self.instant(2026, 3, 29, 1))
        #expect(rule.nextChange(after: Self.instant(2026, 3, 29, 1)) == Self.instant(2026, 10, 25, 1))
        #expect(rule.localTimeType(at: Self.instant(2026, 3, 29, 1) - 1).abbreviation == "CET")
        #expect(rule.localTimeType(at: Self.instant(2026, 3, 29, 1)).abbreviation == "CEST")
        #expect(rule.localTimeType(at: Self.instant(2026, 10, 25, 1)).abbreviation == "CET")
    }

    @Test func quotedNamesAndSouthernHemisphere() throws {
        // America/Santiago: daylight time spans the new year.
        let rule = try PosixTZRule(parsing: "<-04>4<-03>,M9.1.6/24,M4.1.6/24")
        #expect(rule.standard == LocalTimeType(utcOffset: -4 * 3600, isDST: false, abbreviation: "-04"))
        #expect(rule.daylight?.type.abbreviation == "-03")
        #expect(rule.localTimeType(at: Self.instant(2030, 1, 15, 12)).abbreviation == "-03")
        #expect(rule.localTimeType(at: Self.instant(2030, 6, 15, 12)).abbreviation == "-04")
        // September 7, 2030 is the first Saturday; 24:00 of it in -04 is 04:00Z on the 8th.
        #expect(rule.nextChange(after: Self.instant(2030, 6, 15, 12)) == Self.instant(2030, 9, 8, 4))
        let fixed = try PosixTZRule(parsing: "<+0545>-5:45")
        #expect(fixed.standard.utcOffset == 5 * 3600 + 45 * 60)
        #expect(fixed.daylight == nil)
        #expect(fixed.nextChange(after: 0) == nil)
    }

    @Test func negativeAndOverDayTimes() throws {
        // America/Nuuk: the change at -01:00 local, the Saturday evening before the last Sunday of March
        // (2030-03-31), i.e. 23:00 -02 on March 30, 01:00Z on March 31.
        let nuuk = try PosixTZRule(parsing: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        #expect(nuuk.nextChange(after: Self.instant(2030, 1, 1, 0)) == Self.instant(2030, 3, 31, 1))
        // Asia/Jerusalem: 26:00 of the Thursday before the last Sunday, i.e. Friday 02:00.
        let israel = try PosixTZRule(parsing: "IST-2IDT,M3.4.4/26,M10.5.0")
        #expect(israel.nextChange(after: Self.instant(2030, 1, 1, 0)) == Self.instant(2030, 3, 29, 0))
    }

    @Test func julianDayForms() throws {
        // Jn never counts February 29: J60 is March 1 in any year. n counts it: 59 is February 29 in a leap year.
        let julian = try PosixTZRule(parsing: "AAA-1BBB,J60/0,J300/0")
        #expect(julian.nextChange(after: Self.instant(2028, 1, 1, 0)) == Self.instant(2028, 3, 1, 0) - 3600)
        #expect(julian.nextChange(after: Self.instant(2027, 1, 1, 0)) == Self.instant(2027, 3, 1, 0) - 3600)
        let zeroBased = try PosixTZRule(parsing: "AAA-1BBB,59/0,300/0")
        #expect(zeroBased.nextChange(after: Self.instant(2028, 1, 1, 0)) == Self.instant(2028, 2, 29, 0) - 3600)
        #expect(zeroBased.nextChange(after: Self.instant(2027, 1, 1, 0)) == Self.instant(2027, 3, 1, 0) - 3600)
    }

    @Test func daylightTimeAllYear() throws {
        // RFC 8536's example: DST from January 1 00:00 to December 31 25:00 is DST all year, with no change.
        let rule = try PosixTZRule(parsing: "EST5EDT,0/0,J365/25")
        for instant in [Self.instant(2030, 1, 1, 0), Self.instant(2030, 7, 1, 0), Self.instant(2030, 12, 31, 23, 59)] {
            #expect(rule.localTimeType(at: instant).abbreviation == "EDT")
        }
        #expect(rule.nextChange(after: Self.instant(2030, 6, 1, 0)) == nil)
    }

    @Test func defaultRuleAndDaylightOffset() throws {
        // No rule: tzcode's default, the US rule; no DST offset: one hour ahead of standard time.
        let rule = try PosixTZRule(parsing: "EST5EDT")
        #expect(rule.daylight?.type.utcOffset == -4 * 3600)
        #expect(rule.nextChange(after: Self.instant(2026, 1, 1, 0)) == Self.instant(2026, 3, 8, 7))
    }

    @Test(arguments: [
        "", "AB-1", "CET", "CET-1CEST,M13.1.0,M10.5.0", "CET-1CEST,M3.5.0", "<+03-3", "CET-25",
        "CET-1CEST,M3.6.0,M10.5.0",
        "CET-1CEST,M3.5.7,M10.5.0", "CET-1CEST,J0,J100", "CET-1CEST,366,1", "CET-1CEST,M3.5.0/168,M10.5.0", "CET-1 x",
    ])
    func badRulesAreRefused(text: String) {
        #expect(throws: PosixTZRule.ParseError.self) { try PosixTZRule(parsing: text) }
    }
}
