import Foundation
import Testing

/// The daemon maps libsqlite3 only while a widget reads the store (issue 15, idle RSS): loaded with dlopen when the
/// store opens, unloaded once the read is done, loaded again for the next.
@Suite("SQLite loaded only while the store is read", .spawnsDaemons)
struct SQLiteOnDemandTests {
    /// Whether process `pid` has libsqlite3 mapped now (`/proc/PID/maps`).
    static func mapsSQLite(_ pid: Int32) throws -> Bool {
        try String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8).contains("libsqlite3")
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
        #expect(await daemon.waitFor("the first motivation") { daemon.read("motivation.plain") == "First.\n" })
        #expect(try await waitFor("libsqlite3 to be unmapped after the read") { try !Self.mapsSQLite(pid) })
        // Loaded again for the reload the CLI's write asks for, and for the click's write.
        #expect(try runWidgetd(["motivations", "add", "Second."], environment: daemon.environment).status == 0)
        #expect(await daemon.waitFor("the second motivation") { daemon.read("motivation.plain") == "Second.\n" })
        let click = try daemon.cli(["click", "motivation", "--wait"])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(daemon.read("motivation.plain") == "⭐ Second.\n")
        #expect(try await waitFor("libsqlite3 to be unmapped after the click") { try !Self.mapsSQLite(pid) })
        #expect(!daemon.log.contains("cannot load SQLite"))
    }
}
