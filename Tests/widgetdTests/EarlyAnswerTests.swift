import Foundation
import System
import Testing

/// A `reload NAME` line for a kind that answers at once is written before the engine's bookkeeping, and the engine
/// then takes in that same answer (`Daemon+EarlyAnswer`): one rename per reload, and the record says what the file
/// shows.
@Suite("a reload's answer written early", .spawnsDaemons)
struct EarlyAnswerTests {
    @Test func eachReloadRenamesTheFileOnceAndTheRecordAgrees() async throws {
        let daemon = try DaemonUnderTest(config: "widgets:\n  q0:\n    kind: quotes\n    output: [plain]\n")
        #expect(await daemon.waitFor("the quote's timeline") { daemon.hasTimeline("q0") })
        let renames = try Inotify()
        _ = try renames.watch(directory: daemon.output, mask: .movedTo)
        var count = 0
        func countRenames() -> Int {
            count += renames.readEvents().filter { $0.name == "q0.plain" }.count
            return count
        }
        var shown = [try #require(daemon.read("q0.plain"))]
        for round in 1...3 {
            let reload = try daemon.cli(["reload", "q0", "--wait"])
            #expect(reload.status == 0, "\(reload.stderr)")
            // The engine's own write of the answer comes after the acknowledgement's: a quiet spell shows it found the
            // file unchanged.
            #expect(try await waitForQuiet("renames of q0.plain to stop", window: .milliseconds(300), countRenames))
            #expect(count == round, "round \(round): \(count) renames")
            let now = try #require(daemon.read("q0.plain"))
            // The quote after the one shown: the kind was asked once, with what the widget showed before.
            #expect(now != shown.last)
            shown.append(now)
            let record = try daemon.cli(["show", "q0", "--format", "plain"])
            #expect(record.status == 0, "\(record.stderr)")
            #expect(record.stdout == now, "the record shows '\(record.stdout)', the file '\(now)'")
        }
        #expect(Set(shown).count == shown.count, "\(shown)")
        #expect(!daemon.log.contains("error"), "\(daemon.log)")
    }
}
