import Foundation
import Testing

/// Issue 37, item 4: `--wait` tells the truth. `click --wait`, `intent --wait` and `reload --wait` print what the
/// widgets show once the daemon confirmed, with the commands run in this process against the driven daemon. A click
/// whose bound program fails stays in widgetdTests' `WaitOutcomeTests`: the daemon runs that program.
@Suite("--wait says what happened, on the driven daemon")
struct DrivenWaitOutcomeTests {
    static let config = """
        widgets:
          clock:
            kind: clock
          quote:
            kind: quotes
          other:
            kind: quotes

        """

    @Test func clickIntentAndReloadPrintWhatTheWidgetsShowNow() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(
            driven.turns(until: "the first timelines") { ["clock", "quote", "other"].allSatisfy(driven.hasTimeline) })
        let click = driven.commandTakingTurns(["click", "quote", "--wait"])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(click.stdout == (driven.read("quote.plain") ?? "-"))
        #expect(!click.stdout.isEmpty)

        let intent = driven.commandTakingTurns(["intent", "quote", "next", "--wait"])
        #expect(intent.status == 0, "\(intent.stderr)")
        #expect(intent.stdout == (driven.read("quote.plain") ?? "-"))

        let one = driven.commandTakingTurns(["reload", "quote", "--wait"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout == (driven.read("quote.plain") ?? "-"))

        let kind = driven.commandTakingTurns(["reload", "--kind", "quotes", "--wait"])
        #expect(kind.status == 0, "\(kind.stderr)")
        let lines = kind.stdout.split(separator: "\n").map(String.init).sorted()
        #expect(lines.count == 2)
        for name in ["other", "quote"] {
            let text = (driven.read(name + ".plain") ?? "-").trimmingCharacters(in: .newlines)
            #expect(lines.contains(name + ": " + text), "\(lines)")
        }
    }
}
