import Foundation
import TestSupport
import Testing

/// A plugin that floods its output, on the daemon in the test's process (`DrivenDaemon`): its pushed lines are counted
/// a second on the wall clock (`PluginHost.linesPerSecond`), as fast as the plugin writes them, and its replies are
/// never dropped with them.
@Suite("plugins that flood, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenPluginFloodTests {
    /// Each pushed line the daemon logs wakes a turn: a flood is given a time, not a count of turns.
    static let seconds = 60.0

    @Test func aFloodingPluginIsRestarted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let driven = try DrivenDaemon(
            fakePlugin: "flood", in: directory, widgets: "  w:\n    kind: fake\n    output: [plain]")
        // The plugin's own source of log lines is past its limit, and the clock stands still in one window: the restart
        // is read where `widgetd plugins` reads it.
        let status = driven.runtime + "/plugins/plugin-fake.json"
        #expect(
            driven.turns(until: "the restart", within: Self.seconds) {
                (try? String(contentsOfFile: status, encoding: .utf8))?.contains("restarted: it flooded its output")
                    == true
            },
            "\(driven.log.suffix(2000))")
        #expect(driven.log.contains("plugin fake: floods its output"))
    }

    /// Replies are the daemon's own requests answered: a plugin that also pushes more lines than its limit a second
    /// must still be heard, not taken for hung.
    @Test func aReplyAfterAFloodOfPushedLinesIsNotDropped() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let driven = try DrivenDaemon(
            fakePlugin: "chatty", in: directory, widgets: "  w:\n    kind: fake\n    timeout: 2s\n    output: [plain]")
        #expect(
            driven.turns(until: "the first answer", within: Self.seconds) {
                driven.shown("w")?.hasPrefix("n=1 ") == true
            }
        )
        for count in 2...4 {
            let reload = driven.commandTakingTurns(["reload", "w", "--wait"])
            #expect(reload.status == 0, "\(reload.stderr)")
            #expect(
                driven.turns(until: "answer \(count)", within: Self.seconds) {
                    driven.shown("w")?.hasPrefix("n=\(count) ") == true
                },
                "\(driven.shown("w") ?? "nothing") \(driven.log.suffix(1500))")
        }
        #expect(!driven.log.contains("did not answer"), "\(driven.log.suffix(1500))")
    }
}
