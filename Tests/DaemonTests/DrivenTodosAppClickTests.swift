import Foundation
import TestSupport
import Testing

/// A to-dos widget's `app:` with the daemon running: a click off the items starts it, as the seed's tap outside the
/// items opens the app, and a click on an item toggles the item and starts nothing.
@Suite("todos: app: off the items, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenTodosAppClickTests {
    /// A widget named `name` of kind todos whose `app:` touches `<directory>/app-<name>`, with the extra `lines`.
    static func widget(_ name: String, in directory: TemporaryDirectory, _ lines: String = "") -> String {
        "  \(name):\n    kind: todos\n    family: systemLarge\n\(lines)"
            + "    app: [touch, '\(directory.url.path)/app-\(name)']\n"
    }

    @Test func aClickOffTheItemsStartsTheAppAndAClickOnAnItemDoesNot() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config =
            "widgets:\n" + Self.widget("todo_1", in: directory, "    intent: {item: 1}\n")
            + Self.widget("todo_2", in: directory, "    intent: {item: 2}\n") + Self.widget("todos", in: directory)
        let driven = try DrivenDaemon(config: config)
        let ran = { (name: String) in FileManager.default.fileExists(atPath: directory.url.path + "/app-" + name) }
        #expect(driven.turns(until: "the empty list") { driven.read("todos.plain") == "No todos yet\n" })

        // The list with no item: a click on it is off the items.
        let onEmpty = driven.commandTakingTurns(["click", "todos", "--x", "10", "--width", "200", "--wait"])
        #expect(onEmpty.status == 0, "\(onEmpty.stderr)")
        #expect(driven.turns(until: "the list's app") { ran("todos") }, "\(driven.log)")
        try FileManager.default.removeItem(atPath: directory.url.path + "/app-todos")

        #expect(driven.command(["todos", "add", "Alpha"]).status == 0)
        #expect(driven.turns(until: "the to-do") { driven.read("todos.plain") == "○ Alpha\n" }, "\(driven.log)")
        // todo_2 shows no item (there is one to-do): its click is off the items.
        let offItems = driven.commandTakingTurns(["click", "todo_2", "--wait"])
        #expect(offItems.status == 0, "\(offItems.stderr)")
        #expect(driven.turns(until: "todo_2's app") { ran("todo_2") }, "\(driven.log)")

        // On the item, by `item:` and by position: each toggles Alpha and starts nothing.
        let onItem = driven.commandTakingTurns(["click", "todo_1", "--wait"])
        #expect(onItem.status == 0, "\(onItem.stderr)")
        #expect(driven.turns(until: "Alpha ticked off") { driven.read("todos.plain") == "◉ Alpha\n" })
        let onItemByPosition = driven.commandTakingTurns(["click", "todos", "--x", "10", "--width", "200", "--wait"])
        #expect(onItemByPosition.status == 0, "\(onItemByPosition.stderr)")
        #expect(driven.turns(until: "Alpha open again") { driven.read("todos.plain") == "○ Alpha\n" })
        // The two app runs above had touched their files before their clicks' `--wait` returned; these clicks'
        // waits have returned too.
        #expect(!ran("todo_1") && !ran("todos"), "\(driven.log)")
        #expect(driven.log.components(separatedBy: "runs app:").count - 1 == 2, "\(driven.log)")
    }
}
