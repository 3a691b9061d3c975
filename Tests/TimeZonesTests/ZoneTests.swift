import Foundation
import TestSupport
import Testing

@testable import TimeZones

/// Loading zones, the footer past the table, and wall-clock times in gaps and overlaps (what cron needs).
@Suite struct ZoneTests {
    static let berlinSpring = 1_774_746_000  // 2026-03-29T01:00:00Z, 02:00 CET → 03:00 CEST
    static let berlinAutumn = 1_792_890_000  // 2026-10-25T01:00:00Z, 03:00 CEST → 02:00 CET

    static func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Int {
        CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute).localSeconds
    }

    @Test func loadErrorsAreClear() {
        #expect(throws: Zone.LoadError.badIdentifier("../../etc/passwd")) {
            try Zone.load(identifier: "../../etc/passwd")
        }
        #expect(throws: Zone.LoadError.badIdentifier("/etc/localtime")) { try Zone.load(identifier: "/etc/localtime") }
        #expect(throws: Zone.LoadError.badIdentifier("")) { try Zone.load(identifier: "") }
        #expect(throws: Zone.LoadError.notFound("Mars/Olympus_Mons")) { try Zone.load(identifier: "Mars/Olympus_Mons") }
        #expect(throws: Zone.LoadError.notFound("Europe")) { try Zone.load(identifier: "Europe") }
        let long = String(repeating: "Europe/Berlin", count: 4_000)
        #expect(throws: Zone.LoadError.notFound(long)) { try Zone.load(identifier: long) }
        do {
            _ = try Zone.load(identifier: "zone.tab")
            Issue.record("zone.tab is not a TZif file")
        } catch {
            #expect("\(error)".contains("not a valid TZif file"))
        }
    }

    @Test func localZoneAgreesWithFoundation() throws {
        let zone = try Zone.local()
        for instant in stride(from: 0, to: 2_000_000_000, by: 9_999_991) {
            #expect(
                zone.offset(at: instant).utcOffset
                    == TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
        }
        #expect(try Zone.load(identifier: "localtime").offset(at: 0) == zone.offset(at: 0) || getenv("TZ") != nil)
    }

    /// `/etc/localtime` is named by the zone it links to, as Foundation and `timedatectl` name it (plugins get the name).
    @Test func theLocalZoneIsNamedByItsLink() throws {
        let directory = scratchRootURL.appendingPathComponent("zone-link-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let links = [
            "berlin": "/usr/share/zoneinfo/Europe/Berlin", "posix": "../usr/share/zoneinfo/posix/Asia/Tokyo",
            "elsewhere": "/opt/zones/Berlin",
        ]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(atPath: directory + "/" + name, withDestinationPath: target)
        }
        try Data("TZif".utf8).write(to: URL(fileURLWithPath: directory + "/plain"))
        #expect(Zone.linkedIdentifier(of: directory + "/berlin") == "Europe/Berlin")
        #expect(Zone.linkedIdentifier(of: directory + "/posix") == "Asia/Tokyo")
        #expect(Zone.linkedIdentifier(of: directory + "/elsewhere") == "localtime")
        #expect(Zone.linkedIdentifier(of: directory + "/plain") == "localtime")
    }

    @Test func currentIsTheLocalZoneUntilReset() throws {
        let local = try Zone.local()
        #expect(Zone.current == local)
        Zone.resetCurrent()
        #expect(Zone.current == local)
        #expect(Zone.current.identifier == local.identifier)
    }

    @Test func fixedOffsetsAreNamedAsTzdataNamesThem() {
        for (offset, name) in [(0, "UTC"), (19_800, "+0530"), (-4 * 3600, "-04"), (12 * 3600 + 45 * 60, "+1245")] {
            let zone = Zone(fixedOffset: offset)
            #expect(zone.identifier == name)
            #expect(
                zone.offset(at: 1_800_000_000) == LocalTimeType(utcOffset: offset, isDST: false, abbreviation: name))
            #expect(zone.nextTransition(after: 0) == nil)
        }
    }

    /// ICU's custom ids, which `timezone:` accepted while it was Foundation's `TimeZone(identifier:)`.
    @Test func icuStyleFixedOffsetsLoad() throws {
        let cases = [
            ("GMT+5", 18_000, "+05"), ("UTC-03:30", -12_600, "-0330"), ("GMT+0530", 19_800, "+0530"),
            ("GMT-10", -36_000, "-10"), ("UTC+00", 0, "UTC"),
        ]
        for (identifier, offset, abbreviation) in cases {
            let zone = try Zone.load(identifier: identifier)
            #expect(zone.identifier == identifier)
            #expect(zone.offset(at: 0) == LocalTimeType(utcOffset: offset, isDST: false, abbreviation: abbreviation))
            let foundation = try #require(TimeZone(identifier: identifier))
            #expect(foundation.secondsFromGMT() == offset, "\(identifier)")
        }
        // tzdata's own file wins: `GMT+0` is a link to Etc/GMT.
        #expect(try Zone.load(identifier: "GMT+0").offset(at: 0).abbreviation == "GMT")
        for bad in ["GMT+24", "GMT+5:3", "UTC+", "GMT+05:60", "GMT+123", "GMT 5", "GMT+5:30:00", "PST"] {
            #expect(throws: Zone.LoadError.notFound(bad), "\(bad)") { try Zone.load(identifier: bad) }
        }
    }

    @Test func transitionsAndFooter() throws {
        let berlin = try Zone.load(identifier: "Europe/Berlin")
        #expect(berlin.nextTransition(after: Self.berlinSpring - 3600) == Self.berlinSpring)
        #expect(berlin.nextTransition(after: Self.berlinSpring) == Self.berlinAutumn)
        #expect(
            berlin.offset(at: Self.berlinSpring - 1)
                == LocalTimeType(utcOffset: 3600, isDST: false, abbreviation: "CET"))
        #expect(
            berlin.offset(at: Self.berlinSpring) == LocalTimeType(utcOffset: 7200, isDST: true, abbreviation: "CEST"))
        // Far past the table (which ends in 2037): the footer's rule. 2300-03-25 is the last Sunday of March.
        let spring2300 = Self.local(2300, 3, 25, 1)
        #expect(berlin.nextTransition(after: spring2300 - 86_400) == spring2300)
        #expect(berlin.offset(at: spring2300).abbreviation == "CEST")
        // Before the first transition: the first type (local mean time, +0:53:28).
        #expect(berlin.offset(at: -3_000_000_000).utcOffset == 3208)
        // A zone that never changes.
        #expect(try Zone.load(identifier: "Etc/UTC").nextTransition(after: 0) == nil)
    }

    @Test func wallClockTimesInGapsAndOverlaps() throws {
        let berlin = try Zone.load(identifier: "Europe/Berlin")
        #expect(berlin.resolve(local: Self.local(2026, 3, 29, 1, 59)) == .unique(Self.berlinSpring - 60))
        guard
            case .skipped(let transition, let before, let after) = berlin.resolve(local: Self.local(2026, 3, 29, 2, 30))
        else {
            Issue.record("02:30 on 2026-03-29 does not exist in Berlin")
            return
        }
        #expect(transition == Self.berlinSpring)
        #expect([before.abbreviation, after.abbreviation] == ["CET", "CEST"])
        #expect(berlin.resolve(local: Self.local(2026, 3, 29, 3)) == .unique(Self.berlinSpring))
        #expect(
            berlin.resolve(local: Self.local(2026, 10, 25, 2, 30))
                == .repeated(first: Self.berlinAutumn - 1800, second: Self.berlinAutumn + 1800))
        #expect(berlin.resolve(local: Self.local(2026, 10, 25, 3)) == .unique(Self.berlinAutumn + 3600))
        // Samoa skipped all of 2011-12-30 (-10 → +14 at 10:00Z).
        guard
            case .skipped(let samoa, _, _) = try Zone.load(identifier: "Pacific/Apia").resolve(
                local: Self.local(2011, 12, 30, 12))
        else {
            Issue.record("2011-12-30 does not exist in Samoa")
            return
        }
        #expect(samoa == 1_325_239_200)
        // Lord Howe's 30-minute DST: 01:45 happens twice when it ends (2026-04-05, 02:00 +11 → 01:30 +1030).
        let lordHowe = try Zone.load(identifier: "Australia/Lord_Howe")
        guard case .repeated(let first, let second) = lordHowe.resolve(local: Self.local(2026, 4, 5, 1, 45)) else {
            Issue.record("01:45 on 2026-04-05 happens twice on Lord Howe Island")
            return
        }
        #expect(second - first == 1800)
    }

    @Test func ruleZones() throws {
        let zone = Zone(identifier: "test", rule: try PosixTZRule(parsing: "<+03>-3"))
        #expect(zone.offset(at: 0) == LocalTimeType(utcOffset: 10_800, isDST: false, abbreviation: "+03"))
        #expect(TimeFormat("%H:%M %Z %z").string(at: 0, in: zone) == "03:00 +03 +0300")
    }

    @Test func versionOneFiles() throws {
        // A version 1 file: one transition at 1000 from type 0 (+01:00 "AAA") to type 1 (+02:00 "BBB", DST).
        var bytes = Array("TZif".utf8) + [0] + Array(repeating: 0, count: 15)
        for count: Int32 in [0, 0, 0, 1, 2, 8] { bytes += Self.bigEndian(count) }
        bytes += Self.bigEndian(1000) + [1]
        bytes += Self.bigEndian(3600) + [0, 0] + Self.bigEndian(7200) + [1, 4]
        bytes += Array("AAA\0BBB\0".utf8)
        let zone = try Zone(identifier: "v1", tzif: bytes)
        #expect(zone.offset(at: 999).abbreviation == "AAA")
        #expect(zone.offset(at: 1000) == LocalTimeType(utcOffset: 7200, isDST: true, abbreviation: "BBB"))
        #expect(zone.nextTransition(after: 0) == 1000)
        #expect(zone.nextTransition(after: 1000) == nil)
        #expect(throws: Zone.LoadError.self) { try Zone(identifier: "cut", tzif: Array(bytes.prefix(50))) }
    }

    @Test func extremeInstantsAreClampedNotTrapped() throws {
        let berlin = try Zone.load(identifier: "Europe/Berlin")
        for instant in [Int.min, Int.min + 1, -(1 << 60), 1 << 60, Int.max - 1, Int.max] {
            _ = berlin.offset(at: instant)
            _ = berlin.nextTransition(after: instant)
            _ = berlin.resolve(local: instant)
            _ = TimeFormat("%F %T %Z %j").string(at: instant, in: berlin)
        }
        #expect(berlin.nextTransition(after: Int.max) == nil)
        #expect(TimeFormat("%Y").string(at: Int.max, in: berlin) == TimeFormat("%Y").string(at: 1 << 55, in: berlin))
    }

    @Test func damagedFilesAreRefusedNotTrapped() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ZoneinfoCatalog.directory + "/Europe/Berlin")))
        // Every truncation either fails cleanly or (cut inside the footer's last line) still reads.
        for length in 0..<bytes.count {
            _ = try? Zone(identifier: "cut", tzif: Array(bytes.prefix(length)))
        }
        #expect(throws: Zone.LoadError.self) { try Zone(identifier: "cut", tzif: Array(bytes.prefix(44))) }
        // Every byte of the headers and the start of the data set to 0xFF, one at a time.
        for index in 0..<min(bytes.count, 400) {
            var damaged = bytes
            damaged[index] = 0xFF
            if let zone = try? Zone(identifier: "damaged", tzif: damaged) {
                _ = zone.offset(at: 0)
                _ = zone.nextTransition(after: 0)
                _ = zone.resolve(local: 0)
            }
        }
    }

    /// The point of the target: the daemon can use it without Foundation (and so without ICU). Synchronization is
    /// the standard library's (`Zone.current`'s lock); Basics, for its one file read's `EINTR` retry, imports no
    /// Foundation either, which is checked here too.
    @Test(arguments: [
        ("TimeZones", ["import Glibc", "import Synchronization", "import Basics"], 7),
        ("Basics", ["import Glibc", "internal import CLinux"], 5),
    ])
    func sourcesImportNoFoundation(target: String, allowed: [String], least: Int) throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/\(target)").standardizedFileURL
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count >= least)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter { line in
                ["", "internal ", "public ", "package ", "@_exported "].contains { line.hasPrefix($0 + "import ") }
            }
            #expect(imports.allSatisfy { allowed.contains(String($0)) }, "\(target)/\(file): \(imports)")
        }
    }

    static func bigEndian(_ value: Int32) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }
}
