import Foundation
import Glibc
import System
import TestSupport
import Testing

/// Issue 10 (hardening), the daemon's runtime: a log it cannot write, a file size limit, a descriptor limit, a flood of
/// connections past it, a closed writer with half a line. A flood of clicks is `DrivenClickFloodTests`', FIFO lines
/// without their newline and a FIFO replaced by an unsafe one `DrivenControlFIFOTests`'. The rules for outputs it
/// cannot write, a FIFO, runtime directory or lock deleted or taken, floods of bad lines in the log, acknowledgements
/// nobody takes and `config` lines in a row are tested on their parts or on the daemon run in the test's process, on a
/// clock the tests move (docs/development.md, "Tests on the driven clock").
@Suite("widgetd run: hardening of the runtime", .spawnsDaemons)
struct DaemonRuntimeHardeningTests {
    static let config = SampleConfigs.focusQuote

    // MARK: 1. A log that cannot be written

    /// Where the daemon's stderr goes: a full device, or a pipe whose reader has gone.
    enum DeadLog: String, CaseIterable, CustomTestStringConvertible {
        case fullDevice, closedPipe
        var testDescription: String { rawValue }

        func open() throws -> FileHandle {
            switch self {
            case .fullDevice:
                return try #require(FileHandle(forWritingAtPath: "/dev/full"))
            case .closedPipe:
                var ends: [Int32] = [0, 0]
                #expect(pipe(&ends) == 0)
                close(ends[0])
                return FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
            }
        }
    }

    @Test(arguments: DeadLog.allCases)
    func aDaemonWhoseLogCannotBeWrittenKeepsServingAndCleansUp(log: DeadLog) async throws {
        let daemon = try DaemonUnderTest(config: Self.config, standardError: try log.open())
        #expect(await daemon.waitFor("the first timeline") { daemon.hasTimeline("quote") || !daemon.process.isRunning })
        let result = try await daemon.cli(["reload", "quote", "--wait"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(daemon.process.isRunning)
        daemon.stop()
        #expect(daemon.process.terminationReason == .exit && daemon.process.terminationStatus == 0)
        #expect(access(daemon.runtime + "/control", F_OK) != 0, "the FIFO is removed")
        #expect(access(daemon.runtime + "/lock", F_OK) != 0, "the lock is removed")
    }

    @Test(arguments: DeadLog.allCases)
    func aCommandWhoseOutputCannotBeWrittenExitsQuietlyWithStatusOne(output: DeadLog) throws {
        for arguments in [["kinds"], ["help"], ["cron", "* * * * *", "--count", "3"]] {
            let process = Process()
            process.executableURL = widgetdBinary
            process.arguments = arguments
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent-home", "LANG": "C.UTF-8"]
            process.standardOutput = try output.open()
            process.standardError = try output.open()
            process.standardInput = FileHandle.nullDevice
            try process.run()
            try process.waitForExitOrThrow()
            #expect(process.terminationReason == .exit, "\(arguments): killed by signal \(process.terminationStatus)")
            #expect(process.terminationStatus == 1, "\(arguments)")
        }
    }

    // MARK: 6. A line without its newline

    /// Under a file-size limit (`ulimit -f`, a unit's `LimitFSIZE=`), a write past it raised SIGXFSZ, which ended the
    /// daemon without a word. Now the write fails with `EFBIG` as any write can, the widget says so, the others go on.
    @Test func aWritePastTheFileSizeLimitFailsAndTheDaemonGoesOn() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try directory.write(
            "widgets.yaml",
            """
            widgets:
              big:
                kind: exec
                command: [sh, -c, "head -c 30000 /dev/zero | tr '\\\\0' x"]
                output: [plain]
              quote:
                kind: quotes
                output: [plain]

            """)
        let log = try directory.write("daemon.log", "")
        // 20,480 bytes: the quote's files fit, the 30,000-byte one does not. SIGXFSZ at its default: Python ignores
        // it, and an ignored signal stays ignored across exec.
        let daemon = try Self.daemon(
            config: config, in: directory, log: try FileHandle(forWritingTo: URL(fileURLWithPath: log)),
            settingUp: "signal.signal(signal.SIGXFSZ, signal.SIG_DFL); "
                + "resource.setrlimit(resource.RLIMIT_FSIZE, (20480, 20480))")
        defer {
            daemon.killAndWait()
        }
        #expect(
            await waitFor("the failed write in the log", watching: directory.url.path) {
                (try? String(contentsOfFile: log, encoding: .utf8))?.contains(
                    "big: cannot write its entry: write(") == true
            })
        #expect((try? String(contentsOfFile: log, encoding: .utf8))?.contains("File too large") == true)
        #expect(daemon.isRunning)
        #expect(FileManager.default.fileExists(atPath: directory.url.path + "/run/widgetd/out/quote.plain"))
        kill(daemon.processIdentifier, SIGTERM)
        #expect(daemon.waitForExit())
        #expect(daemon.terminationReason == .exit && daemon.terminationStatus == 0)
    }

    /// Started with a low soft limit on descriptors (systemd's 1,024 for services, 64 here), the daemon raises it to
    /// the hard limit: forty persist widgets then all run and show, where a few hundred ran it out at 1,024 and every
    /// write failed from then on.
    @Test func theDaemonRaisesItsDescriptorLimitAndManyPersistWidgetsRun() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let widgets = (0..<40).map {
            "  p\($0):\n    kind: exec\n    interval: persist\n    command: [sh, -c, \"echo up; exec sleep 60\"]\n"
                + "    output: [plain]\n"
        }
        let config = try directory.write("widgets.yaml", "widgets:\n" + widgets.joined())
        let daemon = try Self.daemon(
            config: config, in: directory, log: FileHandle.nullDevice,
            settingUp: "resource.setrlimit(resource.RLIMIT_NOFILE, (64, 4096))")
        defer {
            daemon.terminateAndWait()
        }
        let output = directory.url.path + "/run/widgetd/out/"
        #expect(
            await waitFor("every persist widget's line", timeout: .seconds(20), watching: directory.url.path) {
                (0..<40).allSatisfy {
                    (try? String(contentsOfFile: output + "p\($0).plain", encoding: .utf8)) == "up\n"
                }
            })
        let limits = try String(contentsOfFile: "/proc/\(daemon.processIdentifier)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        #expect(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2) == ["4096", "4096"])
    }

    /// A flood of connections on the updates socket past the daemon's descriptors (a limit of 40 it cannot raise, and
    /// 60 clients that stay): `accept` fails with `EMFILE` and leaves the rest waiting, so the socket stays readable. A
    /// loop that polled it still would spin a core; the daemon rests it a second at a time instead, says so once, and
    /// takes connections again once the clients go.
    @Test func aFloodOfConnectionsPastTheDescriptorLimitDoesNotMakeTheDaemonSpin() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try directory.write("widgets.yaml", "widgets:\n  t:\n    kind: clock\n")
        let logPath = directory.url.path + "/daemon.log"
        #expect(FileManager.default.createFile(atPath: logPath, contents: nil))
        let log = try #require(FileHandle(forWritingAtPath: logPath))
        let daemon = try Self.daemon(
            config: config, in: directory, log: log, settingUp: "resource.setrlimit(resource.RLIMIT_NOFILE, (40, 40))")
        defer {
            daemon.terminateAndWait()
        }
        let runtime = directory.url.path + "/run/widgetd"
        let socketPath = runtime + "/updates"
        #expect(await waitFor("the updates socket", watching: runtime) { access(socketPath, F_OK) == 0 })
        func logged() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        let follow = Array("follow t".utf8)
        var clients: [PacketSocket] = []
        for _ in 0..<60 {
            let client = try PacketSocket.connect(to: socketPath)
            #expect(follow.withUnsafeBytes { client.send($0) } == .sent)
            clients.append(client)
        }
        #expect(
            await waitFor("the failed accept", watching: directory.url.path) {
                logged().contains("cannot take a connection on \(socketPath): accept4: Too many open files")
            }, "\(logged())")
        // A spinning loop has a tick in every second; the second without one is the measurement, so its pause is the
        // test. It counts the daemon's own CPU, which the other tests' load does not raise.
        await DaemonGate.giveBackTurn()
        let pid = daemon.processIdentifier
        #expect(
            try await waitForQuiet("a second without a tick of the daemon's CPU", window: .seconds(1)) {
                try cpuTicks(of: pid)
            })
        clients = []
        let late = try PacketSocket.connect(to: socketPath)
        #expect(follow.withUnsafeBytes { late.send($0) } == .sent)
        var answer = [UInt8](repeating: 0, count: 64)
        #expect(try Poller.waitUntilReadable(late.rawValue, timeout: .seconds(10)), "\(logged())")
        let answered = "current written"
        #expect(answer.withUnsafeMutableBytes { late.receive(into: $0) } == .message(count: answered.utf8.count))
        #expect(String(decoding: answer.prefix(answered.utf8.count), as: UTF8.self) == answered)
        #expect(logged().components(separatedBy: "cannot take a connection").count == 2, "\(logged())")
        #expect(logged().contains("taking connections on \(socketPath) again"), "\(logged())")
    }

    /// `widgetd run --config config` in `directory`'s XDG directories, started by Python after `setUp` (Python code:
    /// a limit to set), as a shell starts it: no signal blocked (the tests' process blocks most, and a child inherits
    /// that).
    static func daemon(config: String, in directory: TemporaryDirectory, log: FileHandle, settingUp setUp: String)
        throws -> Process
    {
        try FileManager.default.createDirectory(
            atPath: directory.url.path + "/run", withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        daemon.arguments = [
            "-c",
            "import os, resource, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); " + setUp
                + "; os.execv(sys.argv[1], sys.argv[1:])",
            widgetdBinary.path, "run", "--config", config,
        ]
        daemon.environment = [
            "XDG_RUNTIME_DIR": directory.url.path + "/run", "XDG_STATE_HOME": directory.url.path + "/state",
            "XDG_DATA_HOME": directory.url.path + "/data", "HOME": directory.url.path, "PATH": "/usr/bin:/bin",
        ]
        daemon.standardError = log
        try daemon.run()
        return daemon
    }

    @Test func aClosedWriterWithHalfALineDoesNotMakeTheDaemonSpin() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(await daemon.waitFor("the first timeline") { daemon.hasTimeline("quote") })
        try writeFIFO(daemon.runtime + "/control", "reload quote")
        #expect(await daemon.waitFor("the line") { daemon.log.contains("reload requested: quote") })
        #expect(try await daemon.cli(["reload", "quote", "--wait"]).status == 0)
        // A loop spinning on POLLHUP burns a whole core: a second of it is about 100 ticks, and no second of it is
        // without one. The idle second is the measurement, so its pause is the test, not a wait for an event: "it does
        // not spin" can only be seen by letting a second pass without a tick. It counts the daemon's own CPU, which
        // the other tests' load does not raise, so an idle daemon needs no turn at the cores meanwhile.
        await DaemonGate.giveBackTurn()
        let pid = daemon.process.processIdentifier
        #expect(
            try await waitForQuiet("a second without a tick of the daemon's CPU", window: .seconds(1)) {
                try cpuTicks(of: pid)
            })
    }

    // MARK: 4. The FIFO, the lock and the runtime directory (deleted or taken: `DrivenRuntimeRepairTests`)

}

/// Opens the FIFO at `path`, writes `text` in one go and closes it, as `printf … > control` does.
func writeFIFO(_ path: String, _ text: String) throws {
    let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if count < 0 {
            guard errno == EAGAIN || errno == EINTR else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&entry, 1, 1000)
            continue
        }
        offset += count
    }
}

/// User plus system CPU time of `pid`, in clock ticks (`/proc/PID/stat`, fields 14 and 15).
func cpuTicks(of pid: Int32) throws -> Int {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    // Fields after the command name, which is in parentheses and may hold spaces.
    let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
    return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
}
