import Foundation
import TestSupport
import Testing

/// A flood of clicks on command widgets (45,000 in 20 s in the soak) queued behind the 16 threads that run them, for
/// minutes after the flood stopped, and every `--wait` waited behind them. Past 64 waiting or running, a click is
/// refused at once and said so (daemon.md, "Limits").
@Suite("a flood of clicks on command widgets", .spawnsDaemons)
struct ClickFloodTests {
    @Test func clicksPastTheBoundAreRefusedAndTheDaemonAnswersMeanwhile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let runs = directory.url.path + "/runs"
        let daemon = try DaemonUnderTest(
            config: """
                widgets:
                  slow:
                    kind: exec
                    command: [sh, -c, 'if [ -n "$BLOCK_BUTTON" ]; then echo run >> \(runs); sleep 1; fi; echo slow']
                    output: [plain]
                  quote:
                    kind: quotes
                    output: [plain]
                """, reusing: directory)
        #expect(await daemon.waitFor("both widgets") { daemon.hasTimeline("slow") && daemon.hasTimeline("quote") })
        let fifo = try #require(FileHandle(forWritingAtPath: daemon.runtime + "/control"))
        fifo.write(Data(String(repeating: "click slow 1\n", count: 300).utf8))
        try fifo.close()
        #expect(
            await daemon.waitFor("the refusals") {
                daemon.log.contains("slow: click not run: 64 clicks and intents on command widgets are still waiting")
            }, "\(daemon.log.suffix(2000))")
        // Another widget's reload is answered while the accepted clicks run.
        let started = ContinuousClock.now
        let reload = try daemon.cli(["reload", "quote", "--wait"])
        #expect(reload.status == 0, "\(reload.stderr)")
        #expect(ContinuousClock.now - started < .seconds(3))
        // A click past the bound, with --wait, hears why.
        let refused = try daemon.cli(["click", "slow", "--wait"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("clicks and intents on command widgets are still waiting or running"))
        let ran = ((try? String(contentsOfFile: runs, encoding: .utf8)) ?? "").split(separator: "\n").count
        #expect(ran <= 64, "\(ran) clicks ran")
    }
}
