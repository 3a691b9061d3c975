import Foundation
import TestSupport
import Testing

/// A store locked by another process holds up only the widgets that use the store, and a `--wait` on an intent
/// hears its final outcome.
@Suite("a locked store, end to end", .spawnsDaemons)
struct StoreIsolationTests {
    @Test(.aheadInLine) func aLockedStoreStallsNoOtherKindAndAFailedClickNeverLandsLater() async throws {
        let daemon = try DaemonUnderTest(
            config: """
                widgets:
                  motivation:
                    kind: motivations
                  quote:
                    kind: quotes
                  clock:
                    kind: clock
                    intent:
                      format: "%H:%M:%S"

                """)
        let env = daemon.environment
        #expect(try runWidgetd(["motivations", "add", "Hold on."], environment: env).status == 0)
        #expect(await daemon.waitFor("the motivation") { daemon.read("motivation.plain") == "☆ Hold on.\n" })
        #expect(await daemon.waitFor("the quote's timeline") { daemon.hasTimeline("quote") })

        // A second process holds the store's write lock, as a `sqlite3` shell in `BEGIN EXCLUSIVE` would.
        let locker = try await StoreLocker(path: env["XDG_DATA_HOME"]! + "/widgetd/store.sqlite", in: daemon.directory)
        defer { locker.release() }

        // Six clicks wait for it: before the store had a lane of its own they filled the four provider threads.
        let clicks = try (0..<6).map { _ in try daemon.startCLI(["click", "motivation", "--wait"]) }
        #expect(
            await waitFor("the daemon to take every click") {
                daemon.log.components(separatedBy: "motivation: left click runs toggle-favorite").count == 7
            })
        // Meanwhile another kind reloads and is written, acknowledged in time.
        let reload = try daemon.cli(["reload", "quote", "--wait"])
        #expect(reload.status == 0, "\(reload.stderr)")
        // The clicks now wait out the store's busy timeout, which costs the cores nothing.
        await DaemonGate.giveBackTurn()

        // Each click hears a final failure: rolled back or never run.
        for click in clicks {
            let result = await click.finish()
            #expect(result.status == 1)
            #expect(
                result.stderr.contains("nothing was changed") || result.stderr.contains("database is locked"),
                "\(result.stderr)")
        }
        #expect(
            await waitFor("every intent to be settled in the log", timeout: .seconds(15)) {
                daemon.loggedTimes("toggle-favorite failed") == 6
            })
        // Once the lock goes, nothing that was reported failed lands after all.
        locker.release()
        let redraw = try daemon.cli(["reload", "motivation", "--wait"])
        #expect(redraw.status == 0, "\(redraw.stderr)")
        #expect(daemon.read("motivation.plain") == "☆ Hold on.\n")
        let list = try runWidgetd(["motivations", "list"], environment: env).stdout
        #expect(!list.contains("★") && !list.contains("⭐"), "\(list)")
        // And the store works again for clicks.
        let click = try daemon.cli(["click", "motivation", "--wait"])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(daemon.read("motivation.plain") == "★ Hold on.\n")
    }
}

/// A `python3` process that holds `BEGIN EXCLUSIVE` on a store until released.
final class StoreLocker {
    private let process = Process()
    private let input = Pipe()

    init(path: String, in directory: TemporaryDirectory) async throws {
        let outPath = try directory.write("locker-\(UUID().uuidString).out", "")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
                + "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.read(); c.execute('ROLLBACK')",
            path,
        ]
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        try process.run()
        _ = await waitFor("the lock to be taken") {
            (try? String(contentsOfFile: outPath, encoding: .utf8)) == "locked\n"
        }
    }

    /// Ends the transaction and the process; again is harmless.
    func release() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// A CLI run against a daemon under test that the test collects later.
final class RunningCLI {
    private let process = Process()
    private let end: ProcessEnd
    private let outPath: String
    private let errPath: String

    init(_ arguments: [String], daemon: DaemonUnderTest) throws {
        let id = UUID().uuidString
        outPath = try daemon.directory.write("cli-\(id).out", "")
        errPath = try daemon.directory.write("cli-\(id).err", "")
        process.executableURL = widgetdBinary
        process.arguments = arguments + ["--config", daemon.configPath]
        process.environment = daemon.environment.merging(["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardInput = FileHandle.nullDevice
        end = ProcessEnd(of: process)
        try process.run()
    }

    /// Waits for it to exit (seconds, behind a busy store: suspended, holding no thread); what it printed and its
    /// status.
    func finish() async -> ProcessResult {
        await end.wait()
        return ProcessResult(
            status: process.terminationStatus,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
}

extension DaemonUnderTest {
    func startCLI(_ arguments: [String]) throws -> RunningCLI {
        try RunningCLI(arguments, daemon: self)
    }
}
