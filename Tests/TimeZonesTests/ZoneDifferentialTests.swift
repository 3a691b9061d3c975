import Foundation
import Testing
import TimeZones

/// Our zoneinfo reader against the two readers the system already has, for every zone in tzdata:
/// Foundation's `TimeZone` (what cron and the clock use today; ICU's copy of the tz database) for offsets,
/// daylight saving time and transitions, and Python's `zoneinfo` (another TZif reader, on the same files) for
/// offsets and abbreviations: ICU's abbreviations are its own (CLDR's "GMT+9" for Asia/Tokyo), not tzdata's.
///
/// Instants: 1970-01-01 to 2040-01-01 every 73 days and 3,671 seconds (a fifth of a year, so the samples walk
/// through the seasons and the time of day moves too), plus every transition either reader reports in that
/// span, 1 s before, at, and 1 s after it. Python also checks the footer rules far past the tables' ends.
@Suite struct ZoneDifferentialTests {
    static let end = CivilDate(year: 2040, month: 1, day: 1).daysSince1970 * 86_400

    /// Files compared with Python only. `EET` and `WET` keep in ICU the meaning they had before tzdata 2024b
    /// made them links to Europe/Athens and Europe/Lisbon (ICU still has them as rule zones of their own, with
    /// offsets that differ in the 1970s and 1980s); `posixrules` is tzcode's template for TZ rules, not a zone.
    static let notComparedWithFoundation: Set<String> = ["EET", "WET", "posixrules"]

    @Test func everyZoneIsReadable() throws {
        #expect(ZoneinfoCatalog.identifiers.count > 400)
        for identifier in ZoneinfoCatalog.identifiers {
            _ = try Zone.load(identifier: identifier)
        }
    }

    @Test func knownIdentifiersAreTheZoneFiles() {
        // Every file but tzcode's `posixrules` template is a zone or link that tzdata.zi names.
        #expect(Zone.knownIdentifiers() == ZoneinfoCatalog.identifiers.filter { $0 != "posixrules" })
    }

    @Test func offsetsDaylightTimeAndTransitionsMatchFoundation() throws {
        var instantsCompared = 0
        var zonesCompared = 0
        /// Zones that differ from Foundation, with the instants where the UTC offsets differ and ours there.
        var differing: [(identifier: String, problems: [String], offsets: [(instant: Int, ours: Int)])] = []
        for identifier in ZoneinfoCatalog.identifiers where !Self.notComparedWithFoundation.contains(identifier) {
            let zone = try Zone.load(identifier: identifier)
            let foundation = try #require(TimeZone(identifier: identifier), "Foundation has no \(identifier)")
            let ours = Self.transitions(of: zone)
            let theirs = Self.foundationTransitions(of: foundation)
            let negativeDST = Self.hasNegativeDaylightTime(zone, transitions: ours)
            var problems: [String] = []
            var offsetDifferences: [(instant: Int, ours: Int)] = []
            zonesCompared += 1

            // Transitions: the same instants where the offset changes; and, unless tzdata's main format uses
            // negative DST here (Europe/Dublin, Africa/Windhoek, Morocco: ICU reads the rearguard format, which
            // flips those zones' DST flags), the same instants where the DST flag changes too.
            let offsetChanges = ours.filter { zone.offset(at: $0).utcOffset != zone.offset(at: $0 - 1).utcOffset }
            let theirOffsetChanges = theirs.filter {
                foundation.secondsFromGMT(for: Self.date($0)) != foundation.secondsFromGMT(for: Self.date($0 - 1))
            }
            if offsetChanges != theirOffsetChanges {
                problems.append(
                    "offset changes differ: ours only \(Set(offsetChanges).subtracting(theirOffsetChanges).sorted()), "
                        + "Foundation only \(Set(theirOffsetChanges).subtracting(offsetChanges).sorted())")
            }
            if !negativeDST {
                let flagOrOffsetChanges = ours.filter {
                    zone.offset(at: $0).utcOffset != zone.offset(at: $0 - 1).utcOffset
                        || zone.offset(at: $0).isDST != zone.offset(at: $0 - 1).isDST
                }
                if flagOrOffsetChanges != theirs {
                    problems.append(
                        "transitions differ: ours only \(Set(flagOrOffsetChanges).subtracting(theirs).sorted()), "
                            + "Foundation only \(Set(theirs).subtracting(flagOrOffsetChanges).sorted())")
                }
            }

            for instant in Self.instants(transitions: ours + theirs) {
                instantsCompared += 1
                let type = zone.offset(at: instant)
                let date = Self.date(instant)
                let offset = foundation.secondsFromGMT(for: date)
                if type.utcOffset != offset {
                    problems.append("at \(instant): offset ours \(type.utcOffset), Foundation \(offset)")
                    offsetDifferences.append((instant, type.utcOffset))
                }
                if !negativeDST, type.isDST != foundation.isDaylightSavingTime(for: date) {
                    problems.append("at \(instant): DST ours \(type.isDST), Foundation \(!type.isDST)")
                }
            }
            if !problems.isEmpty { differing.append((identifier, problems, offsetDifferences)) }
        }

        // Foundation answers from ICU's own copy of the tz database, the system from its tzdata package, which is
        // updated apart from the toolchain: a zone whose rules changed between the two versions differs. Such a
        // difference is the data's, not our reader's, when the versions differ and Python's `zoneinfo`, reading the
        // system's files as we do, gives our offset at every instant where Foundation's differs. Anything else is
        // an issue: a difference with the same data, or one Python does not side with us on.
        let (icuVersion, systemVersion) = (TimeZone.timeZoneDataVersion, Self.systemDataVersion())
        let questions = differing.flatMap { zone in zone.offsets.map { (zone.identifier, $0.instant) } }
        let answers = questions.isEmpty ? [] : try Self.pythonZoneinfo(questions)
        try #require(answers.count == questions.count, "python3 answered \(answers.count) of \(questions.count)")
        var pythonOffsets = answers.makeIterator()
        var newerData: [String] = []
        for zone in differing {
            let pythonSidesWithUs = zone.offsets.allSatisfy { difference in
                pythonOffsets.next()?.split(separator: " ").first == Substring(String(difference.ours))
            }
            if icuVersion != systemVersion, !zone.offsets.isEmpty, pythonSidesWithUs {
                newerData.append(zone.identifier)
            } else {
                Issue.record("\(zone.identifier): \(zone.problems.prefix(5).joined(separator: "; "))")
            }
        }
        if !newerData.isEmpty {
            print(
                "Foundation's tz data is \(icuVersion), the system's \(systemVersion ?? "unknown"): "
                    + "\(newerData.count) zones differ as their data does (\(newerData.joined(separator: ", ")))")
        }
        // Most zones still compare: a tzdata release changes the rules of a few.
        #expect(newerData.count * 10 < zonesCompared, "\(newerData.count) of \(zonesCompared) zones differ")
        // 597 zones and links in tzdata 2025b.
        #expect(instantsCompared > 400 * 300)
    }

    @Test func offsetsAndAbbreviationsMatchPython() throws {
        // Our answer for each instant, as Python writes its own (`OFFSET ABBREVIATION`), in the order asked. The
        // two are compared as one text, and line by line only where they differ: splitting and comparing 240,000
        // lines one by one took most of a second of CPU in a debug build.
        var asked: [(zone: String, instants: [Int])] = []
        var ours: [String] = []
        for identifier in ZoneinfoCatalog.identifiers {
            let zone = try Zone.load(identifier: identifier)
            let instants = Self.instants(transitions: Self.transitions(of: zone)) + Self.farInstants(zone)
            asked.append((identifier, instants))
            for instant in instants {
                let type = zone.offset(at: instant)
                ours.append(String(type.utcOffset) + " " + type.abbreviation)
            }
        }
        let answer = try Self.pythonZoneinfoText(asked)
        if answer != ours.joined(separator: "\n") + "\n" {
            let answers = answer.split(separator: "\n").map(String.init)
            try #require(answers.count == ours.count, "python3 answered \(answers.count) of \(ours.count)")
            var index = 0
            for (identifier, instants) in asked {
                var problems: [String] = []
                for instant in instants {
                    if ours[index] != answers[index] {
                        problems.append("at \(instant): ours \(ours[index]), Python \(answers[index])")
                    }
                    index += 1
                }
                if !problems.isEmpty { Issue.record("\(identifier): \(problems.prefix(5).joined(separator: "; "))") }
            }
        }
        // 599 zones and links in tzdata 2025b.
        #expect(ours.count > 400 * 400)
    }

    // MARK: - Helpers

    /// The version of the system's tzdata, from the first line of its `tzdata.zi` (`# version 2026f`).
    static func systemDataVersion() -> String? {
        let path = ZoneinfoCatalog.directory + "/tzdata.zi"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let first = text.split(separator: "\n", maxSplits: 1).first, first.hasPrefix("# version ")
        else { return nil }
        return String(first.dropFirst("# version ".count))
    }

    static func date(_ seconds: Int) -> Date { Date(timeIntervalSince1970: Double(seconds)) }

    /// Our transitions from 1970 to 2040.
    static func transitions(of zone: Zone) -> [Int] {
        var list: [Int] = []
        var cursor = -1
        while let next = zone.nextTransition(after: cursor), next < end {
            list.append(next)
            cursor = next
        }
        return list
    }

    static func foundationTransitions(of zone: TimeZone) -> [Int] {
        var list: [Int] = []
        var cursor = date(-1)
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 < Double(end)
        {
            list.append(Int(next.timeIntervalSince1970))
            cursor = next
        }
        return list
    }

    /// The instants sampled in every zone, in order.
    static let sampled = Array(stride(from: 0, to: end, by: 73 * 86_400 + 3671))

    /// The sampled instants and each transition ±1 s, sorted, without repeats: two sorted lists merged. (A `Set` of
    /// them, sorted, was most of this suite's CPU in a debug build.)
    static func instants(transitions: [Int]) -> [Int] {
        let (sampled, edges) = (Self.sampled, transitions.flatMap { [$0 - 1, $0, $0 + 1] }.sorted())
        var merged: [Int] = []
        merged.reserveCapacity(sampled.count + edges.count)
        var (i, j) = (0, 0)
        while i < sampled.count || j < edges.count {
            let next: Int
            if j == edges.count || (i < sampled.count && sampled[i] <= edges[j]) {
                (next, i) = (sampled[i], i + 1)
            } else {
                (next, j) = (edges[j], j + 1)
            }
            if merged.last != next { merged.append(next) }
        }
        return merged
    }

    /// Past the tables (which tzdata writes up to 2037): each transition of 2040 to 2043 ±1 s, and every 3 years
    /// and 11 days to the year 2400.
    static func farInstants(_ zone: Zone) -> [Int] {
        var list: [Int] = []
        var cursor = end
        while let next = zone.nextTransition(after: cursor), next < end + 4 * 31_556_952 {
            list += [next - 1, next, next + 1]
            cursor = next
        }
        let year2400 = CivilDate(year: 2400, month: 1, day: 1).daysSince1970 * 86_400
        return list + Array(stride(from: end, to: year2400, by: 3 * 31_556_952 + 11 * 86_400))
    }

    /// Whether the zone has a daylight saving period whose offset is below the standard time on both sides of
    /// it: tzdata's "negative DST" (Irish winter time, Namibian and Moroccan offsets), which ICU's rearguard data
    /// writes the other way round.
    static func hasNegativeDaylightTime(_ zone: Zone, transitions: [Int]) -> Bool {
        zip(transitions, transitions.dropFirst()).contains { start, end in
            let (before, during, after) = (zone.offset(at: start - 1), zone.offset(at: start), zone.offset(at: end))
            return during.isDST && !before.isDST && !after.isDST && during.utcOffset < before.utcOffset
                && during.utcOffset < after.utcOffset
        }
    }

    /// Python's `zoneinfo` (its own TZif reader, on the same files): `OFFSET ABBREVIATION` for each query, from
    /// one process.
    static func pythonZoneinfo(_ queries: [(String, Int)]) throws -> [String] {
        try pythonZoneinfoText(queries.map { ($0.0, [$0.1]) }).split(separator: "\n").map(String.init)
    }

    /// Python's answers for each zone's instants, one line each (`OFFSET ABBREVIATION`) in the order asked. The
    /// questions go one zone to a line (`NAME INSTANT INSTANT …`).
    static func pythonZoneinfoText(_ queries: [(zone: String, instants: [Int])]) throws -> String {
        let script = """
            import sys, datetime, zoneinfo
            out = []
            for line in sys.stdin:
                name, *instants = line.split()
                zone = zoneinfo.ZoneInfo(name)
                for instant in instants:
                    local = datetime.datetime.fromtimestamp(int(instant), zone)
                    out.append(f"{int(local.utcoffset().total_seconds())} {local.tzname()}")
            sys.stdout.write("\\n".join(out) + "\\n")
            """
        let text = queries.map { $0.zone + " " + $0.instants.map(String.init).joined(separator: " ") + "\n" }.joined()
        let data = try runPython(
            script, input: Data(text.utf8),
            environment: ["PYTHONTZPATH": ZoneinfoCatalog.directory, "PATH": "/usr/bin:/bin"])
        return String(decoding: data, as: UTF8.self)
    }
}
