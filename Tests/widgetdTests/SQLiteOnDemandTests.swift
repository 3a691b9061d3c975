import Foundation
import TestSupport
import Testing

/// The daemon maps libsqlite3 only while a widget reads the store (issue 15, idle RSS): loaded with dlopen when the
/// store opens, unloaded once the read is done, loaded again for the next.
@Suite("SQLite loaded only while the store is read", .spawnsDaemons)
struct SQLiteOnDemandTests {
    /// Whether process `pid` has libsqlite3 mapped now (`/proc/PID/maps`).
    static func mapsSQLite(_ pid: Int32) throws -> Bool {
        try procFile("/proc/\(pid)/maps").contains("libsqlite3")
    }

    @Test func aDaemonWithoutStoreWidgetsNeverMapsIt() async throws {
        let daemon = try DaemonUnderTest(config: "widgets:\n  quote:\n    kind: quotes\n")
        #expect(await daemon.waitFor("the quote's timeline") { daemon.hasTimeline("quote") })
        #expect(try !Self.mapsSQLite(daemon.process.processIdentifier))
    }

    @Test func aStoreWidgetReadsThenUnloadsItAndReadsAgainAfterAWrite() async throws {
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  motivation:\n    kind: motivations\n    output: [plain]\n")
        let pid = daemon.process.processIdentifier
        #expect(try runWidgetd(["motivations", "add", "First."], environment: daemon.environment).status == 0)
        #expect(await daemon.waitFor("the first motivation") { daemon.read("motivation.plain") == "☆ First.\n" })
        #expect(try await waitFor("libsqlite3 to be unmapped after the read") { try !Self.mapsSQLite(pid) })
        // Loaded again for the reload the CLI's write asks for, and for the click's write.
        #expect(try runWidgetd(["motivations", "add", "Second."], environment: daemon.environment).status == 0)
        #expect(await daemon.waitFor("the second motivation") { daemon.read("motivation.plain") == "☆ Second.\n" })
        let click = try await daemon.cli(["click", "motivation", "--wait"])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(daemon.read("motivation.plain") == "★ Second.\n")
        #expect(try await waitFor("libsqlite3 to be unmapped after the click") { try !Self.mapsSQLite(pid) })
        #expect(!daemon.log.contains("cannot load SQLite"))
    }

    /// A click on a store widget writes the store and then reads it again for the reload it causes: one load of
    /// SQLite for both, since the reload starts while the click's hold still keeps the store open.
    @Test func aClickAndTheReloadItCausesLoadItOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let loaderLog = directory.url.path + "/loader"
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  motivation:\n    kind: motivations\n    output: [plain]\n", reusing: directory,
            extraEnvironment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": loaderLog])
        let pid = daemon.process.processIdentifier
        // The start-up read first, so that the write's reload is the only one: one overlapping it would be followed
        // by another read, which could land after the count below is taken.
        #expect(await daemon.waitFor("the start-up read") { daemon.hasTimeline("motivation") })
        #expect(try runWidgetd(["motivations", "add", "First."], environment: daemon.environment).status == 0)
        #expect(await daemon.waitFor("the motivation") { daemon.read("motivation.plain") == "☆ First.\n" })
        #expect(try await waitFor("libsqlite3 to be unmapped after the read") { try !Self.mapsSQLite(pid) })
        let before = Self.sqliteLoads(prefix: loaderLog, pid: pid)
        #expect(
            await waitFor("the loader to report the unload") {
                Self.sqliteLoads(prefix: loaderLog, pid: pid).unloads == before.loads
            })
        let loads = Self.sqliteLoads(prefix: loaderLog, pid: pid).loads

        let click = try await daemon.cli(["click", "motivation", "--wait"])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(daemon.read("motivation.plain") == "★ First.\n")
        #expect(try await waitFor("libsqlite3 to be unmapped after the click") { try !Self.mapsSQLite(pid) })
        #expect(
            await waitFor("the loader to report the click's unload") {
                Self.sqliteLoads(prefix: loaderLog, pid: pid) == (loads + 1, loads + 1)
            })
        #expect(Self.sqliteLoads(prefix: loaderLog, pid: pid).loads == loads + 1, "\(daemon.log)")
    }

    /// How often the dynamic loader loaded and unloaded libsqlite3 in process `pid`, from its `LD_DEBUG=files` log
    /// (`LD_DEBUG_OUTPUT=PREFIX` writes it to `PREFIX.PID`): glibc's loader makes a link map for each load and
    /// destroys it at each unload.
    static func sqliteLoads(prefix: String, pid: Int32) -> (loads: Int, unloads: Int) {
        let lines = ((try? String(contentsOfFile: "\(prefix).\(pid)", encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { $0.contains("libsqlite3.so") }
        return (
            lines.filter { $0.contains("generating link map") }.count,
            lines.filter { $0.contains("destroying link map") }.count
        )
    }

    /// Store reloads wait for the store's thread one by one; the store stays open (and SQLite loaded) from the
    /// first to the last, a read that fails included, and is let go once none waits (issue 15, the cost of a burst).
    ///
    /// The failing widget is retried after 1 s, 2 s, 4 s, … (the engine's backoff), each retry a read of its own that
    /// loads SQLite again: on a slow machine one can land before a count below is taken. So the counts allow one load
    /// per retry the daemon's log shows, instead of racing them. Without the hold, each burst alone loads it 13 times.
    @Test func aBurstOfStoreReloadsLoadsItOnceAndUnloadsItAfter() async throws {
        let names = (0..<12).map { "m\($0)" }
        let config =
            "widgets:\n" + names.map { "  \($0):\n    kind: motivations\n    output: [plain]\n" }.joined()
            // No motivation has this id: its read fails, after opening the store like the others.
            + "  missing:\n    kind: motivations\n    intent:\n      motivation: ffff\n    output: [plain]\n"
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let loaderLog = directory.url.path + "/loader"
        let daemon = try DaemonUnderTest(
            config: config, reusing: directory,
            extraEnvironment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": loaderLog])
        let pid = daemon.process.processIdentifier
        /// The loads and unloads once SQLite is unloaded, and how many times the failing widget was asked so far (read
        /// after the loads: a call is logged before it opens the store).
        func settledCounts(after what: String) async throws -> (loads: Int, unloads: Int, failingCalls: Int) {
            #expect(try await waitFor("libsqlite3 to be unmapped after \(what)") { try !Self.mapsSQLite(pid) })
            // The loader logs an unload after unmapping the library: waited for too.
            var counts = (loads: 0, unloads: 0)
            #expect(
                await waitFor("the loader to report as many unloads as loads after \(what)") {
                    counts = Self.sqliteLoads(prefix: loaderLog, pid: pid)
                    return counts.loads > 0 && counts.loads == counts.unloads
                })
            let failingCalls =
                daemon.log.components(separatedBy: "missing: asking motivations for a timeline").count - 1
            return (counts.loads, counts.unloads, failingCalls)
        }

        // Start-up: all thirteen read the (empty) store.
        #expect(
            await daemon.waitFor("every widget's first timeline") {
                (names + ["missing"]).allSatisfy(daemon.hasTimeline)
            })
        let startUp = try await settledCounts(after: "start-up")
        #expect(daemon.log.contains("missing: no motivation with id 'ffff'"), "\(daemon.log)")
        // One load for the start-up's thirteen reads, and at most one for each retry since.
        #expect(startUp.failingCalls >= 1)
        #expect(startUp.loads <= 1 + (startUp.failingCalls - 1), "\(startUp)")

        // A write reloads the kind: thirteen reloads queued at once, one load again.
        #expect(try runWidgetd(["motivations", "add", "First."], environment: daemon.environment).status == 0)
        #expect(
            await daemon.waitFor("every widget showing the new motivation") {
                names.allSatisfy { daemon.read("\($0).plain") == "☆ First.\n" }
            })
        let burst = try await settledCounts(after: "the reloads")
        let callsSince = burst.failingCalls - startUp.failingCalls
        #expect(callsSince >= 1, "the write's reload asks the failing widget too")
        #expect(burst.loads - startUp.loads >= 1)
        #expect(burst.loads - startUp.loads <= 1 + (callsSince - 1), "\(startUp) then \(burst)")
    }
}
