import Foundation
import Synchronization
import TestSupport
import Testing

/// A flood of clicks on command widgets (45,000 in 20 s in the soak) queued behind the 16 threads that run them, for
/// minutes after the flood stopped, and every `--wait` waited behind them. Past 64 waiting or running, a click is
/// refused at once and said so (daemon.md, "Limits").
@Suite("a flood of clicks on command widgets, on the driven daemon")
struct DrivenClickFloodTests {
    @Test func clicksPastTheBoundAreRefusedAndTheDaemonAnswersMeanwhile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let runs = directory.url.path + "/runs"
        let driven = try DrivenDaemon(
            config: """
                widgets:
                  slow:
                    kind: exec
                    command: [sh, -c, 'if [ -n "$BLOCK_BUTTON" ]; then echo run >> \(runs); sleep 1; fi; echo slow']
                    output: [plain]
                  quote:
                    kind: quotes
                    output: [plain]
                """)
        #expect(driven.turns(until: "both widgets") { driven.hasTimeline("slow") && driven.hasTimeline("quote") })
        // More than the FIFO holds at once: written on a thread of its own while the turns read it.
        let fifo = try #require(FileHandle(forWritingAtPath: driven.runtime + "/control"))
        let written = Mutex(false)
        Thread.detachNewThread {
            fifo.write(Data(String(repeating: "click slow 1\n", count: 300).utf8))
            try? fifo.close()
            written.withLock { $0 = true }
        }
        #expect(
            driven.turns(until: "the refusals") {
                written.withLock { $0 }
                    && driven.log.contains(
                        "slow: click not run: 64 clicks and intents on command widgets are still waiting")
            }, "\(driven.log.suffix(2000))")
        // Another widget's reload is answered while the accepted clicks run.
        let started = ContinuousClock.now
        let reload = driven.commandTakingTurns(["reload", "quote", "--wait"])
        #expect(reload.status == 0, "\(reload.stderr)")
        #expect(ContinuousClock.now - started < .seconds(3))
        // A click past the bound, with --wait, hears why.
        let refused = driven.commandTakingTurns(["click", "slow", "--wait"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("clicks and intents on command widgets are still waiting or running"))
        let ran = ((try? String(contentsOfFile: runs, encoding: .utf8)) ?? "").split(separator: "\n").count
        #expect(ran <= 64, "\(ran) clicks ran")
    }
}
