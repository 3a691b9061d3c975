import Foundation
import Glibc
import System
import TestSupport
import Testing

/// A store locked by another process holds up only the widgets that use the store, and each click waiting for it is
/// answered with its final outcome, on the driven daemon: the store's patience passes on the daemon's clock, SQLite's
/// wait for the lock on the wall clock, no longer than what is left of that patience.
@Suite("a locked store, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenStoreLockTests {
    @Test func aLockedStoreStallsNoOtherKindAndAFailedClickNeverLandsLater() throws {
        let driven = try DrivenDaemon(
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
        #expect(driven.command(["motivations", "add", "Hold on."]).status == 0)
        #expect(driven.turns(until: "the motivation") { driven.read("motivation.plain") == "☆ Hold on.\n" })
        #expect(driven.turns(until: "the quote's timeline") { driven.hasTimeline("quote") })

        // A second process holds the store's write lock, as a `sqlite3` shell in `BEGIN EXCLUSIVE` would.
        let locker = try StoreLocker(path: driven.directory.url.path + "/data/store.sqlite")
        defer { locker.release() }

        // Six clicks wait for it: before the store had a lane of its own they filled the four provider threads.
        let tokens = (0..<6).map { "locked\($0)" }
        #expect(driven.writeToFIFO(tokens.map { "click motivation 1 ack=\($0)\n" }.joined()))
        #expect(
            driven.turns(until: "the daemon to take every click") {
                driven.log.components(separatedBy: "motivation: left click runs toggle-favorite").count == 7
            }, "\(driven.log)")
        // Meanwhile another kind reloads and is written, acknowledged in time.
        #expect(driven.reloadIsAcknowledged("quote", token: "quote-meanwhile"))
        #expect(driven.acknowledgement("quote-meanwhile")?.hasPrefix("done") == true)

        // The store's patience passes: each click hears a final failure, rolled back or never run.
        driven.advance(by: 5)
        #expect(
            driven.turns(until: "every click's answer", within: 30) {
                tokens.allSatisfy { driven.acknowledgement($0) != nil }
            }, "\(driven.log)")
        for token in tokens {
            let answer = driven.acknowledgement(token) ?? ""
            #expect(!answer.hasPrefix("done"), "\(token): \(answer)")
            #expect(
                answer.contains("nothing was changed") || answer.contains("database is locked"), "\(token): \(answer)")
        }
        // Repeats of one line are counted until the log's window ends, on the daemon's clock.
        driven.advance(by: 5)
        #expect(
            driven.turns(until: "every intent settled in the log") {
                Self.logged("toggle-favorite failed", driven) == 6
            },
            "\(driven.log)")

        // Once the lock goes, nothing that was reported failed lands after all.
        locker.release()
        #expect(driven.reloadIsAcknowledged("motivation", token: "redraw"))
        #expect(driven.read("motivation.plain") == "☆ Hold on.\n")
        let list = driven.command(["motivations", "list"]).stdout
        #expect(!list.contains("★") && !list.contains("⭐"), "\(list)")
        // And the store works again for clicks.
        let click = driven.commandTakingTurns(["click", "motivation", "--wait"])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(driven.read("motivation.plain") == "★ Hold on.\n")
    }

    /// How many times the daemon logged a line with `fragment`, a line's repeats counted by its `(repeated N times)`.
    static func logged(_ fragment: String, _ driven: DrivenDaemon) -> Int {
        driven.log.split(separator: "\n").filter { $0.contains(fragment) }.reduce(0) { total, line in
            guard let range = line.range(of: " (repeated ", options: .backwards),
                let count = Int(line[range.upperBound...].prefix { $0.isNumber })
            else { return total + 1 }
            return total + count
        }
    }
}

/// A `python3` process that holds `BEGIN EXCLUSIVE` on a store until released.
private final class StoreLocker {
    private let process = Process()
    private let input = Pipe()

    /// Starts it and returns once it says it holds the lock (its line on a pipe, within ten seconds).
    init(path: String) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
                + "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.read(); c.execute('ROLLBACK')",
            path,
        ]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let said = try Poller.waitUntilReadable(output.fileHandleForReading.fileDescriptor, timeout: .seconds(10))
        let line = said ? String(decoding: output.fileHandleForReading.availableData, as: UTF8.self) : ""
        #expect(line.hasPrefix("locked"), "the locker said \(line.debugDescription)")
    }

    /// Ends the transaction and the process; again is harmless.
    func release() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        if !process.waitForExit(timeout: .seconds(10)) { process.killAndWait() }
    }
}
