import Foundation
import Glibc
import TestSupport
import Testing

extension FakeNotifySocket {
    /// Messages until one contains `field`; fails the test if none does in time.
    func receive(until field: String, timeout: Duration = .seconds(10)) -> [String] {
        let (messages, found) = messages(until: field, timeout: timeout)
        if !found { Issue.record("no \(field) in \(messages)") }
        return messages
    }
}

/// What systemd sees of the daemon's own process: the watchdog's keep-alives, the journal's prefixes on its standard
/// error, the unit. READY=1, RELOADING=1 and STOPPING=1 are DaemonTests' `DrivenNotifyTests`, a click's display
/// `DrivenSessionEnvironmentTests`.
@Suite("systemd: Type=notify, watchdog, journal", .spawnsDaemons)
struct SystemdServiceTests {
    static let config = """
        widgets:
          quote:
            kind: quotes
            output: [plain]

        """

    @Test("WATCHDOG=1 arrives again and again at half of WATCHDOG_USEC, from an idle loop")
    func watchdog() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = try FakeNotifySocket(abstract: true, in: directory)
        let daemon = try DaemonUnderTest(
            config: Self.config, extraEnvironment: ["NOTIFY_SOCKET": socket.address, "WATCHDOG_USEC": "200000"])
        _ = socket.receive(until: "READY=1")
        let start = ContinuousClock.now
        for _ in 0..<4 { _ = socket.receive(until: "WATCHDOG=1", timeout: .seconds(2)) }
        // Four keep-alives at 0.1 s each: well under the 0.2 s interval times four, with room for a slow machine.
        #expect(ContinuousClock.now - start < .seconds(3))
        daemon.stop()
    }

    @Test("With JOURNAL_STREAM naming its stderr, every log line carries one priority prefix")
    func journalPrefixes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let logPath = try directory.write("journal", "")
        var status = stat()
        try #require(stat(logPath, &status) == 0)
        let stream = "\(status.st_dev):\(status.st_ino)"
        let daemon = try DaemonUnderTest(
            config: Self.config, standardError: FileHandle(forWritingAtPath: logPath),
            extraEnvironment: ["JOURNAL_STREAM": stream])
        // An invalid edit logs errors; a valid start logs info lines.
        _ = await daemon.waitFor("the first paint") { daemon.read("quote.plain") != nil }
        try daemon.editConfig("widgets:\n  quote:\n    kind: quotse\n")
        _ = await waitFor("the config errors in the log") {
            (try? String(contentsOfFile: logPath, encoding: .utf8))?.contains("keeping the running") == true
        }
        daemon.stop()
        let lines = try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(line.range(of: #"^<[3467]>[^<]"#, options: .regularExpression) != nil, "\(line)")
            #expect(!line.contains("widgetd: error:"), "\(line)")
        }
        #expect(lines.contains { $0.hasPrefix("<3>") && $0.contains("keeping the running configuration") })
        #expect(lines.contains { $0.hasPrefix("<6>") && $0.contains("started") })
    }

    @Test("A config that stops the start is reported to the journal as errors, one prefix per line")
    func journalStartFailure() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let logPath = try directory.write("journal", "")
        let config = try directory.write("widgets.yaml", "widgets:\n  quote:\n    kind: quotse\n")
        var status = stat()
        try #require(stat(logPath, &status) == 0)
        let process = Process()
        process.executableURL = widgetdBinary
        process.arguments = ["run", "--config", config]
        process.environment = [
            "JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino)", "XDG_RUNTIME_DIR": directory.url.path,
            "HOME": directory.url.path,
        ]
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        try process.waitForExitOrThrow()
        #expect(process.terminationStatus == 1)
        let lines = try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 2)
        #expect(lines.allSatisfy { $0.hasPrefix("<3>") }, "\(lines)")
        #expect(lines.contains { $0.contains("unknown kind 'quotse'") })
    }

    @Test("A JOURNAL_STREAM that names another file leaves the plain prefixes")
    func journalStreamOfAnotherFile() async throws {
        let daemon = try DaemonUnderTest(config: Self.config, extraEnvironment: ["JOURNAL_STREAM": "1:1"])
        _ = await daemon.waitFor("the first paint") { daemon.read("quote.plain") != nil }
        daemon.stop()
        #expect(daemon.log.contains("widgetd: info: started"))
        #expect(!daemon.log.contains("<6>"))
    }

    @Test("systemd-analyze verify --user accepts the unit as installed")
    func unitVerifies() throws {
        let prefix = try TemporaryDirectory()
        defer { prefix.remove() }
        let install = try runScript("install", ["--prefix", prefix.url.path, "--binary", widgetdBinary.path])
        try #require(install.status == 0, "\(install.stderr)")
        let unit = prefix.url.path + "/share/systemd/user/widgetd.service"
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        #expect(text.contains("Type=notify"))
        #expect(text.contains("WantedBy=default.target"))
        #expect(text.contains("ExecStart=\(prefix.url.path)/bin/widgetd run"))
        #expect(text.contains("Documentation=man:widgetd(1)"))
        // Without a user manager systemd-analyze needs a runtime directory of its own; MANPATH lets it find the
        // man pages Documentation= names, as installed.
        let run = try TemporaryDirectory()
        defer { run.remove() }
        let verify = try runProgram(
            try requireExecutable("systemd-analyze", package: "systemd"), ["verify", "--user", unit],
            environment: ["XDG_RUNTIME_DIR": run.url.path, "MANPATH": prefix.url.path + "/share/man"])
        #expect(verify.status == 0, "systemd-analyze verify: \(verify.stdout)\(verify.stderr)")
        #expect(verify.stderr.isEmpty, "\(verify.stderr)")
    }
}
