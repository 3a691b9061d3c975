import Foundation
import Testing

/// The output directory swapped for a symbolic link while the daemon runs: nothing is written through the link, a
/// `--wait` says the write failed, and every file comes back once a proper directory is back.
@Suite("output directory swapped for a link, end to end", .spawnsDaemons)
struct OutputDirectorySwapTests {
    @Test func aLinkIsNeverWrittenThroughAndEveryFileComesBack() async throws {
        let names = (1...20).map { "quote\($0)" }
        let daemon = try DaemonUnderTest(
            config: "widgets:\n" + names.map { "  \($0):\n    kind: quotes\n" }.joined())
        let manager = FileManager.default
        func complete() -> Bool {
            names.allSatisfy { daemon.read($0 + ".plain") != nil && daemon.read($0 + ".json") != nil }
        }
        #expect(await waitFor("all 20 widgets' files") { complete() })

        // Moved away and a link to a directory of the attacker's (here: the test's) put in its place.
        let elsewhere = daemon.directory.url.path + "/elsewhere"
        try manager.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try manager.moveItem(atPath: daemon.output, toPath: daemon.output + ".old")
        try manager.createSymbolicLink(atPath: daemon.output, withDestinationPath: elsewhere)
        #expect(
            await daemon.waitFor("the daemon to refuse the link") {
                daemon.log.contains("is a directory of this user's again")
            })

        // A reload cannot write: its --wait says so.
        let refused = try daemon.cli(["reload", "all", "--wait"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("symbolic link"), "\(refused.stderr)")
        #expect(try manager.contentsOfDirectory(atPath: elsewhere).isEmpty)

        // A proper (empty) directory back in its place: every file of every widget is written again.
        try manager.removeItem(atPath: daemon.output)
        try manager.createDirectory(atPath: daemon.output, withIntermediateDirectories: true)
        #expect(await waitFor("all 20 widgets' files again") { complete() })
        #expect(try manager.contentsOfDirectory(atPath: elsewhere).isEmpty)
        let restored = try daemon.cli(["reload", "all", "--wait"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(complete())
    }

}
