import Foundation
import System
import Testing

/// A `reload NAME` line for a kind that answers at once, in memory: one rename per reload, and the record says what
/// the file shows. What the reload's write needs next is made ready after it (an empty spare).
@Suite("a reload of a kind that answers at once", .spawnsDaemons)
struct ReloadAnsweredAtOnceTests {
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
            // A quiet spell shows no second write of the answer.
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

    /// After a reload that changed the file's length, the file just replaced (now its spare) is emptied before the
    /// daemon sleeps, with pages kept for the next quote (`HeldSpares.emptyRetiredSpares`): the next reload's write
    /// neither truncates nor allocates.
    @Test func aReloadOfAnotherLengthLeavesAnEmptySpareBehind() async throws {
        let daemon = try DaemonUnderTest(config: "widgets:\n  q0:\n    kind: quotes\n    output: [plain]\n")
        #expect(await daemon.waitFor("the quote's timeline") { daemon.hasTimeline("q0") })
        func spare() -> stat? {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: daemon.output)) ?? []
            guard let name = names.first(where: { $0.hasPrefix(".q0.plain.") }) else { return nil }
            var status = stat()
            return lstat(daemon.output + "/" + name, &status) == 0 ? status : nil
        }
        // The file is held open with its spare from its third write on; then reloads until one changes the length.
        var before = try #require(daemon.read("q0.plain"))
        var changedLength = false
        for round in 1...12 where !changedLength {
            let reload = try daemon.cli(["reload", "q0", "--wait"])
            #expect(reload.status == 0, "\(reload.stderr)")
            let now = try #require(daemon.read("q0.plain"))
            changedLength = round >= 2 && now.utf8.count != before.utf8.count
            before = now
        }
        try #require(changedLength, "twelve reloads kept the quote's length")
        #expect(
            await daemon.waitFor("the spare emptied") { spare().map { $0.st_size == 0 && $0.st_blocks > 0 } == true },
            "spare: \(String(describing: spare().map { ($0.st_size, $0.st_blocks) }))")
        #expect(daemon.read("q0.plain") == before)
        let reload = try daemon.cli(["reload", "q0", "--wait"])
        #expect(reload.status == 0, "\(reload.stderr)")
        #expect(daemon.read("q0.plain") != before)
        #expect(!daemon.log.contains("error"), "\(daemon.log)")
    }
}
