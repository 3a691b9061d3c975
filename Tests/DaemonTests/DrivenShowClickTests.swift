import Foundation
import TestSupport
import Testing

/// `widgetd show NAME` as i3blocks runs a block's command for a click, against the daemon in the test's process
/// (`DrivenDaemon`): the click i3blocks started it for is forwarded and waited for, then the widget printed. A click in
/// a real i3blocks, and `show --follow` reading clicks on its standard input, stay in widgetdTests' `I3blocksTests`.
@Suite("show forwards i3blocks' click, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenShowClickTests {
    static let config = """
        widgets:
          motivation:
            kind: motivations
          todos:
            kind: todos
            family: systemLarge

        """

    @Test func showForwardsTheClickI3blocksStartedItForThenPrintsTheResult() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(driven.command(["motivations", "add", "No zero days."]).status == 0)
        #expect(
            driven.turns(until: "the new motivation") { driven.read("motivation.plain") == "☆ No zero days.\n" })
        // What i3blocks 1.4 sets on a click: the button, and where the pointer was on the screen.
        let clicked = driven.commandTakingTurns(
            ["show", "motivation"], adding: ["BLOCK_BUTTON": "1", "BLOCK_X": "1186", "BLOCK_Y": "13"])
        #expect(clicked.status == 0, "\(clicked.stderr)")
        #expect(clicked.stdout == "★ No zero days.\n")
        // A run for the interval or a signal: BLOCK_BUTTON is empty, and nothing is clicked.
        #expect(driven.command(["show", "motivation"], adding: ["BLOCK_BUTTON": ""]).stdout == "★ No zero days.\n")
        #expect(driven.log.components(separatedBy: "toggle-favorite:").count == 2, "\(driven.log)")

        // i3blocks 1.5 adds i3bar's relative_x and width: the click ticks off the to-do under the pointer.
        for title in ["Alpha", "Beta"] {
            #expect(driven.command(["todos", "add", title]).status == 0)
        }
        #expect(driven.turns(until: "two to-dos") { driven.read("todos.plain") == "○ Alpha  ○ Beta\n" })
        let onBeta = driven.commandTakingTurns(
            ["show", "todos"], adding: ["BLOCK_BUTTON": "1", "relative_x": "110", "width": "120"])
        #expect(onBeta.stdout == "○ Alpha  ◉ Beta\n", "\(onBeta.stderr)")
    }
}
