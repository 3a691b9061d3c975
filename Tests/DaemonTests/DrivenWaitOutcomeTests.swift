import Foundation
import TestSupport
import Testing

/// Issue 37, item 4: `--wait` tells the truth. `click --wait`, `intent --wait` and `reload --wait` print what the
/// widgets show once the daemon confirmed, with the commands run in this process against the driven daemon; a click
/// whose bound program fails says why (the program runs here, and each turn reaps it as SIGCHLD would).
@Suite("--wait says what happened, on the driven daemon", .waitsOnThreadsOfItsOwn)
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

    /// The daemon's environment names no display (the driven daemon's has none), as at a login before the session.
    @Test func aRightClickWhoseProgramHasNoDisplayFailsNamingIt() throws {
        let driven = try DrivenDaemon(
            config: """
                widgets:
                  todos:
                    kind: todos
                    on_click:
                      right: [xdotool, getmouselocation]
                  missing:
                    kind: quotes
                    on_click:
                      right: [widgetd-no-such-program]

                """)
        #expect(driven.turns(until: "the first timelines") { ["todos", "missing"].allSatisfy(driven.hasTimeline) })
        let click = driven.commandTakingTurns(["click", "todos", "--button", "3", "--wait"])
        #expect(click.status == 1)
        #expect(
            click.stderr.hasPrefix("widgetd: error: todos: right click: xdotool exited with status 1"),
            "\(click.stderr)")
        #expect(click.stderr.contains("no display"))
        let missing = driven.commandTakingTurns(["click", "missing", "--button", "3", "--wait"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("widgetd-no-such-program"), "\(missing.stderr)")
    }

}
