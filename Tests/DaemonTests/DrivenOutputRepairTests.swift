import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon

/// What is deleted from the output directory comes back once deletions have stopped for `DirectoryGuard.repairDelay`:
/// the whole daemon on a clock the test moves (`DrivenDaemon`), real files and watches. The rule alone, without a
/// daemon, is `DirectoryGuardTests`'.
@Suite("the daemon on a driven clock: deleted outputs written again", .waitsOnThreadsOfItsOwn)
struct DrivenOutputRepairTests {
    /// Deleted, then put back only once the delay has passed since the last deletion seen.
    private static func repaired(_ driven: DrivenDaemon, _ check: () -> Bool) -> Bool {
        driven.settle()
        driven.advance(by: DirectoryGuard.repairDelay / 2)
        guard !check() else {
            Issue.record("repaired before the delay passed")
            return false
        }
        driven.advance(by: DirectoryGuard.repairDelay)
        return check()
    }

    @Test func deletedFilesAndDirectoriesAreWrittenAgainOnceDeletionsHaveStoppedForTheDelay() throws {
        let driven = try DrivenDaemon(config: "widgets:\n  quote:\n    kind: quotes\n    output: [plain, i3bar]\n")
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        let plain = try #require(driven.read("quote.plain"))
        let everyFile = {
            driven.read("quote.plain") == plain && driven.read("quote.i3bar") != nil && driven.read("quote.json") != nil
        }
        #expect(everyFile())

        #expect(unlink(driven.output + "/quote.plain") == 0 && unlink(driven.output + "/quote.json") == 0)
        #expect(Self.repaired(driven, everyFile))
        #expect(driven.log.contains("quote's files were deleted: writing them again"))

        // `rm -r` of the whole directory: made again, with every file.
        try FileManager.default.removeItem(atPath: driven.output)
        #expect(Self.repaired(driven, everyFile))
        #expect(driven.log.contains("was deleted or moved: making it again"))
        // Watched again: a later deletion is repaired too, and so is a move.
        #expect(unlink(driven.output + "/quote.i3bar") == 0)
        #expect(Self.repaired(driven, everyFile))
        #expect(rename(driven.output, driven.output + ".old") == 0)
        #expect(Self.repaired(driven, everyFile))
        // Replaced at once by a new, empty directory: the new one is watched and filled.
        try FileManager.default.removeItem(atPath: driven.output)
        #expect(mkdir(driven.output, 0o700) == 0)
        #expect(Self.repaired(driven, everyFile))
        #expect(unlink(driven.output + "/quote.i3bar") == 0)
        #expect(Self.repaired(driven, everyFile))
    }
}
