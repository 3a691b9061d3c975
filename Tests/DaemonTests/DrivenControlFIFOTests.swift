import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon

/// The control FIFO's hard cases on the daemon in the test's process (`DrivenDaemon`): a writer's unfinished line, and
/// a FIFO put back unsafe, refused until a SIGHUP (handled as the loop handles what its signalfd reads) finds it safe.
@Suite("the control FIFO's hard cases, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenControlFIFOTests {
    static let config = SampleConfigs.focusQuote

    @Test func aLineWithoutItsNewlineDoesNotSwallowTheNextRequest() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        #expect(driven.writeToFIFO("reload all"))  // printf 'reload all' > control
        let result = driven.commandTakingTurns(["reload", "--kind", "quotes", "--wait", "--timeout", "5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            driven.turns(until: "the unfinished line as a request") {
                driven.log.contains("reload requested: quote\n")
            }, "\(driven.log)")
        #expect(!driven.log.contains("reload allreload"), "\(driven.log)")

        // Even a raw writer without the CLI's leading newline is heard once the first writer has closed.
        #expect(driven.writeToFIFO("reload all"))
        #expect(
            driven.turns(until: "the second unfinished line") {
                driven.log.components(separatedBy: "reload requested").count >= 4
            }, "\(driven.log)")
        #expect(driven.writeToFIFO("reload kind quotes ack=raw1\n"))
        #expect(driven.turns(until: "the raw request's acknowledgement") { driven.log.contains("(ack raw1)") })
    }

    @Test func aFIFOReplacedByAnUnsafeOneIsRefusedAndTakenOnSIGHUPOnceItIsSafe() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        let fifo = driven.runtime + "/control"
        #expect(unlink(fifo) == 0)
        #expect(mkfifo(fifo, 0o600) == 0 && chmod(fifo, 0o666) == 0)  // `mkfifo control` with a loose umask
        // The repair once deletions stopped for its delay, which the test's clock passes.
        driven.settle()
        driven.advance(by: DirectoryGuard.repairDelay)
        #expect(driven.log.contains("cannot make the control FIFO again"), "\(driven.log)")
        #expect(driven.log.contains("other users must have no access"))
        // chmod makes no inotify event the daemon watches; SIGHUP is the way to say "look again".
        #expect(chmod(fifo, 0o600) == 0)
        driven.daemon.handleSignals([SIGHUP])
        #expect(driven.turns(until: "the FIFO taken again") { driven.log.contains("listening on it again") })
        let result = driven.commandTakingTurns(["reload", "quote", "--wait"])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
