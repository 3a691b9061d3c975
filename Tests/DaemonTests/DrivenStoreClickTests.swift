import Foundation
import TestSupport
import Testing

/// The app's commands editing the daemon's store, and clicks on what they added, run in this process against the
/// driven daemon. Many processes writing the store at once stays in widgetdTests' `InteractiveEndToEndTests`.
@Suite("clicks and the store with the driven daemon running", .waitsOnThreadsOfItsOwn)
struct DrivenStoreClickTests {
    @Test func anAddedMotivationIsShownAndAClickTogglesItsStar() throws {
        let driven = try DrivenDaemon(
            config: "widgets:\n  motivation:\n    kind: motivations\n    output: [plain, waybar]\n")
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("motivation") })
        let added = driven.command(["motivations", "add", "No zero days."])
        #expect(added.status == 0, "\(added.stderr)")
        // The app's write reloads the kind: the widget shows the new motivation without the daemon polling.
        #expect(
            driven.turns(until: "the new motivation") { driven.read("motivation.plain") == "☆ No zero days.\n" })
        let click = driven.commandTakingTurns(["click", "motivation", "--wait"])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(driven.read("motivation.plain") == "★ No zero days.\n")
        #expect(driven.read("motivation.waybar")?.contains("\"favorite\"") == true)
        let intent = driven.commandTakingTurns(["intent", "motivation", "toggle-favorite", "--wait"])
        #expect(intent.status == 0, "\(intent.stderr)")
        #expect(driven.read("motivation.plain") == "☆ No zero days.\n")
    }
}
