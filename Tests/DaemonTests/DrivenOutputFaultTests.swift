import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon

/// An output directory that stops taking writes (full, or read-only) and heals with no change the daemon watches: the
/// acknowledgement says the write failed, and the write is tried again with a back-off until it goes through. The
/// whole daemon in this process, on a clock the test moves (`DrivenDaemon`); the back-off alone is
/// `OutputRetryTests`'.
@Suite("the daemon on a driven clock: outputs that cannot be written", .waitsOnThreadsOfItsOwn)
struct DrivenOutputFaultTests {
    /// How the output directory stops taking writes, what the daemon then reports, and how it comes back (with no
    /// deletion in the output directory and no new entry).
    enum OutputFault: String, CaseIterable, CustomTestStringConvertible {
        case diskFull, readOnly
        var testDescription: String { rawValue }

        var reason: String { self == .diskFull ? "No space left on device" : "Read-only file system" }

        func inject(_ tmpfs: TinyTmpfs) throws {
            switch self {
            case .diskFull: try tmpfs.fill("filler")
            case .readOnly: #expect(tmpfs.remount(readOnly: true))
            }
        }

        func heal(_ tmpfs: TinyTmpfs) {
            switch self {
            case .diskFull: #expect(unlink(tmpfs.path + "/filler") == 0)
            case .readOnly: #expect(tmpfs.remount(readOnly: false))
            }
        }
    }

    @Test(
        .enabled(if: TinyTmpfs.canMount, "needs a tiny tmpfs, which only root can mount"),
        arguments: OutputFault.allCases)
    func anUnwritableOutputFailsTheAcknowledgementAndTheEntryIsWrittenOnceItHeals(fault: OutputFault) throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let tmpfs = try TinyTmpfs(at: scratch.url.path + "/tmpfs")
        defer { tmpfs.unmount() }
        let driven = try DrivenDaemon(
            config: "widgets:\n  quote:\n    kind: quotes\n    intent:\n      category: focus\n"
                + "    output: [plain, i3blocks]\nsettings:\n  output_dir: \(tmpfs.path)/out\n")
        let plain = tmpfs.path + "/out/quote.plain"
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        let before = try #require(try? String(contentsOfFile: plain, encoding: .utf8))

        try fault.inject(tmpfs)
        #expect(driven.writeToFIFO("reload quote ack=during\n"))
        #expect(driven.turns(until: "the answer") { driven.acknowledgement("during") != nil })
        let refused = driven.acknowledgement("during") ?? ""
        #expect(!refused.hasPrefix("done") && refused.contains(fault.reason), "\(refused)")
        let during = try String(contentsOfFile: plain, encoding: .utf8)
        switch fault {
        case .readOnly:
            #expect(refused.contains("quote: cannot write its entry"), "\(refused)")
            #expect(during == before)
        case .diskFull:
            // A bar file written before is rewritten through its spare (AtomicFile+Spare), whose old page is freed
            // before the new one is taken, so on a full disk it may still go through, whole; the record, a new file,
            // cannot, and the acknowledgement says so.
            #expect(refused.contains("quote: cannot write its"), "\(refused)")
            #expect(during == before || (during.count > 1 && during.hasSuffix("\n")), "\(during.debugDescription)")
        }
        // Tried again after the first delay, still failing: the next try waits twice as long.
        driven.advance(by: OutputRetry.firstDelay)
        #expect(!driven.log.contains("the output files are written again"))

        // The disk heals without any change the daemon watches, and still the file catches up at the next try.
        fault.heal(tmpfs)
        driven.advance(by: OutputRetry.firstDelay)
        #expect(!driven.log.contains("the output files are written again"), "not before the doubled delay")
        driven.advance(by: OutputRetry.firstDelay)
        #expect(driven.log.contains("the output files are written again"), "\(driven.log)")
        #expect((try? String(contentsOfFile: plain, encoding: .utf8)).map { $0 != before } == true)
        #expect(driven.reloadIsAcknowledged("quote", token: "after"))
        #expect(driven.acknowledgement("after")?.hasPrefix("done") == true, "\(driven.acknowledgement("after") ?? "")")
    }
}
