import Foundation
import TestSupport
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

    /// Its peak is read from `/proc` (`VmHWM`) while it prints its errors, held there by a pipe of one page that is
    /// read only after: its checking is done by then. Not `ru_maxrss` from `wait4`, which counts the test process's own
    /// peak too (a spawned child starts from its parent's: about 150 MB in a full run).
    @Test func checkCountsToTheLimitShowsAHundredAndStaysSmall() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try directory.write("widgets.yaml", Self.amplifying)
        let process = Process()
        let end = ProcessEnd(of: process)
        process.executableURL = widgetdBinary
        process.arguments = ["check", "--config", config]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent-home", "LANG": "C.UTF-8"]
        let errors = Pipe()
        let pipeSize: Int32 = 1031  // F_SETPIPE_SZ, which Swift's Glibc does not export
        #expect(fcntl(errors.fileHandleForWriting.fileDescriptor, pipeSize, 4096) >= 0)
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var readable = pollfd(fd: errors.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(await waitFor("its first errors", timeout: .seconds(60)) { poll(&readable, 1, 0) == 1 })
        let peak = DaemonWorkingSetTests.resident(process.processIdentifier)?.peak
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        await end.wait()
        #expect(process.terminationStatus == 1)
        let lines = output.split(separator: "\n")
        #expect(lines.last == "at least 10000 errors in \(config)", "\(lines.suffix(3))")
        #expect(lines.dropLast().last == "and at least 9900 more errors (checking stops after 10000)")
        #expect(lines.filter { $0.contains(": error: unknown output format 'qqqq'") }.count == 100)
        let kilobytes = try #require(peak)
        #expect(kilobytes < Self.peakBound, "check's peak resident set: \(kilobytes) kB")
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
