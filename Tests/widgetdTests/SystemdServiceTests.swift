import Foundation
import Glibc
import TestSupport
import Testing

/// A datagram socket bound where a test tells the daemon `NOTIFY_SOCKET` is: systemd's side of sd_notify.
final class FakeNotifySocket {
    let descriptor: Int32
    /// The address as the daemon gets it: a path, or `@name` for an abstract socket.
    let address: String

    init(abstract: Bool, in directory: TemporaryDirectory) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(descriptor >= 0)
        self.descriptor = descriptor
        var name = sockaddr_un()
        name.sun_family = sa_family_t(AF_UNIX)
        let text = abstract ? "@widgetd-test-\(UUID().uuidString)" : directory.url.path + "/notify"
        var bytes = Array(text.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &name.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &name) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        try #require(bound == 0, "bind \(text): errno \(errno)")
        address = text
    }

    deinit {
        close(descriptor)
    }

    /// The next message, or nil when none came within `timeout`.
    func receive(timeout: Duration = .seconds(10)) -> String? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&poller, 1, milliseconds) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Messages until one contains `field`; fails the test if none does in time.
    func receive(until field: String, timeout: Duration = .seconds(10)) -> [String] {
        var messages: [String] = []
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline, let message = receive(timeout: deadline - ContinuousClock.now) {
            messages.append(message)
            if message.split(separator: "\n").contains(Substring(field)) { return messages }
        }
        Issue.record("no \(field) in \(messages)")
        return messages
    }
}

@Suite("systemd: Type=notify, watchdog, journal", .spawnsDaemons)
struct SystemdServiceTests {
    static let config = """
        widgets:
          quote:
            kind: quotes
            output: [plain]

        """

    @Test(
        "READY=1 after the first paint, RELOADING=1/READY=1 around a SIGHUP reload, STOPPING=1 on SIGTERM",
        arguments: [false, true])
    func notifications(abstract: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = try FakeNotifySocket(abstract: abstract, in: directory)
        let daemon = try DaemonUnderTest(config: Self.config, extraEnvironment: ["NOTIFY_SOCKET": socket.address])
        let ready = socket.receive(until: "READY=1")
        // The first paint is written before the service says it is ready.
        #expect(daemon.read("quote.plain") != nil)
        #expect(ready.last?.split(separator: "\n").contains("STATUS=1 widget") == true, "\(ready)")
        #expect(ready.last?.contains("MAINPID=\(daemon.process.processIdentifier)") == true)

        kill(daemon.process.processIdentifier, SIGHUP)
        let reloading = socket.receive(until: "RELOADING=1")
        let reloadFields = reloading.last?.split(separator: "\n") ?? []
        let monotonic = reloadFields.first { $0.hasPrefix("MONOTONIC_USEC=") }.flatMap { UInt64($0.dropFirst(15)) }
        #expect(monotonic.map { $0 > 0 } == true, "RELOADING=1 comes with MONOTONIC_USEC: \(reloading)")
        #expect(socket.receive(until: "READY=1").count >= 1)

        daemon.stop()
        #expect(socket.receive(until: "STOPPING=1").count >= 1)
    }

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
        process.waitUntilExit()
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

@Suite("on_click commands get the session's display", .spawnsDaemons)
struct SessionEnvironmentTests {
    /// A daemon "under systemd" (INVOCATION_ID) whose PATH finds a fake systemctl printing the manager's environment,
    /// and a right click that writes what its command sees.
    func clickSees(daemonDisplay: String?) async throws -> String {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bin = directory.url.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let systemctl = try directory.write(
            "bin/systemctl",
            "#!/bin/sh\n[ \"$*\" = '--user show-environment' ] || exit 1\n"
                + "printf '%s\\n' 'DISPLAY=:42' 'XAUTHORITY=/tmp/x y' \"WAYLAND_DISPLAY=\\$'odd'\" 'OTHER=1'\n")
        chmod(systemctl, 0o755)
        let seen = directory.url.path + "/seen"
        let config = """
            widgets:
              quote:
                kind: quotes
                on_click:
                  right: [sh, -c, 'echo "$DISPLAY|$XAUTHORITY|$WAYLAND_DISPLAY|$OTHER" > \(seen)']

            """
        var environment = ["INVOCATION_ID": "0123", "PATH": bin + ":/usr/bin:/bin"]
        if let daemonDisplay { environment["DISPLAY"] = daemonDisplay }
        let daemon = try DaemonUnderTest(config: config, extraEnvironment: environment)
        _ = await waitFor("daemon.json") { FileManager.default.fileExists(atPath: daemon.runtime + "/daemon.json") }
        let click = try daemon.cli(["click", "quote", "--button", "3", "--wait"])
        #expect(click.status == 0, "\(click.stderr)")
        _ = await waitFor("the click's command") { FileManager.default.fileExists(atPath: seen) }
        _ = await waitFor("the click's output") {
            (try? String(contentsOfFile: seen, encoding: .utf8))?.hasSuffix("\n") == true
        }
        return try String(contentsOfFile: seen, encoding: .utf8)
    }

    @Test("A daemon started before the session takes DISPLAY and XAUTHORITY from the user manager at click time")
    func importsFromTheManager() async throws {
        #expect(try await clickSees(daemonDisplay: nil) == ":42|/tmp/x y||\n")
    }

    @Test("A daemon with a display of its own passes its environment as it is")
    func keepsItsOwnDisplay() async throws {
        #expect(try await clickSees(daemonDisplay: ":7") == ":7|||\n")
    }
}
