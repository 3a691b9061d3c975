import Foundation
import Testing

/// Issue 38, item 6: a config whose aliases multiply its mistakes, one list of 140,000 bad items (980 kB) aliased into
/// six widgets, made `check` and a hot reload build all 840,000 errors to show 100: `check` took 2.4 s and 480 MB,
/// and a reload raised the daemon's peak to 481 MB and made a per-second clock miss a second. Checking now stops
/// counting at 10,000 errors and makes only those it shows.
@Suite("widgets.yaml: mistakes multiplied by aliases", .spawnsDaemons)
struct ConfigAmplificationTests {
    /// The file: each of the six widgets' `output:` is the whole list.
    static let amplifying: String = {
        var yaml = "x-formats: &formats\n"
        yaml.reserveCapacity(1_000_000)
        for _ in 0..<140_000 { yaml += "- qqqq\n" }
        yaml += "widgets:\n"
        for index in 0..<6 { yaml += "  w\(index): {kind: clock, output: *formats}\n" }
        return yaml
    }()

    /// Far above what checking this file needs now (about 35 MB in a debug build), far below what building every error
    /// took.
    static let peakBound = 100_000

    @Test func checkCountsToTheLimitShowsAHundredAndStaysSmall() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try directory.write("widgets.yaml", Self.amplifying)
        let check = try SpawnedProcess(
            widgetdBinary.path, ["check", "--config", config],
            environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent-home", "LANG": "C.UTF-8"],
            log: directory.url.path + "/check.out", newSession: false)
        #expect(await waitFor("check to end", timeout: .seconds(60)) { check.poll() != nil })
        #expect(check.poll() == 1 << 8, "exit status 1")
        let lines = check.log.split(separator: "\n")
        #expect(lines.last == "at least 10000 errors in \(config)", "\(lines.suffix(3))")
        #expect(lines.dropLast().last == "and at least 9900 more errors (checking stops after 10000)")
        #expect(lines.filter { $0.contains(": error: unknown output format 'qqqq'") }.count == 100)
        let peak = try #require(check.peakResidentKilobytes)
        #expect(peak < Self.peakBound, "check's peak resident set: \(peak) kB")
    }

    @Test func aHotReloadLogsTheFirstErrorsAndTheDaemonStaysSmall() async throws {
        let daemon = try DaemonUnderTest(
            config: """
                widgets:
                  c:
                    kind: clock
                    intent: {format: "%T", seconds: true}
                    output: [plain]

                """)
        #expect(await daemon.waitFor("the clock") { daemon.hasTimeline("c") })
        try daemon.editConfig(Self.amplifying)
        let verdict = "keeping the running configuration ("
        #expect(await daemon.waitFor("the reload's verdict", timeout: .seconds(60)) { daemon.log.contains(verdict) })
        let log = daemon.log
        #expect(log.contains(verdict + "at least 10000 errors in \(daemon.configPath))"), "\(log.suffix(500))")
        #expect(log.components(separatedBy: "unknown output format 'qqqq'").count - 1 == 100)
        let peak = try #require(DaemonWorkingSetTests.resident(daemon.process.processIdentifier)?.peak)
        #expect(peak < Self.peakBound, "the daemon's peak resident set: \(peak) kB")
        // The running configuration goes on.
        let shown = daemon.read("c.plain")
        #expect(await daemon.waitFor("the clock's next second") { daemon.read("c.plain") != shown })
    }
}
