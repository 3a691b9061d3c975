import Foundation
import TestSupport
import Testing

/// A to-dos widget's `app:` with the daemon running: a click off the items starts it, as the seed's tap outside the
/// items opens the app, and a click on an item toggles the item and starts nothing.
@Suite("todos: app: off the items, end to end", .spawnsDaemons)
struct TodosAppClickTests {
    /// A widget named `name` of kind todos whose `app:` touches `<directory>/app-<name>`, with the extra `lines`.
    static func widget(_ name: String, in directory: TemporaryDirectory, _ lines: String = "") -> String {
        "  \(name):\n    kind: todos\n    family: systemLarge\n\(lines)"
            + "    app: [touch, '\(directory.url.path)/app-\(name)']\n"
    }

    @Test func aClickOffTheItemsStartsTheAppAndAClickOnAnItemDoesNot() async throws {
        // The apps' files in a directory of their own: the config names it before the daemon's scratch one exists.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config =
            "widgets:\n" + Self.widget("todo_1", in: directory, "    intent: {item: 1}\n")
            + Self.widget("todo_2", in: directory, "    intent: {item: 2}\n") + Self.widget("todos", in: directory)
        let daemon = try DaemonUnderTest(config: config)
        let ran = { (name: String) in FileManager.default.fileExists(atPath: directory.url.path + "/app-" + name) }
        #expect(await daemon.waitFor("the empty list") { daemon.read("todos.plain") == "No todos yet\n" })

        // The list with no item: a click on it is off the items.
        let onEmpty = try daemon.cli(["click", "todos", "--x", "10", "--width", "200", "--wait"])
        #expect(onEmpty.status == 0, "\(onEmpty.stderr)")
        #expect(await waitFor("the list's app", watching: directory.url.path) { ran("todos") }, "\(daemon.log)")
        try FileManager.default.removeItem(atPath: directory.url.path + "/app-todos")

        #expect(try daemon.cli(["todos", "add", "Alpha"]).status == 0)
        #expect(await daemon.waitFor("the to-do") { daemon.read("todos.plain") == "○ Alpha\n" }, "\(daemon.log)")
        // todo_2 shows no item (there is one to-do): its click is off the items.
        let offItems = try daemon.cli(["click", "todo_2", "--wait"])
        #expect(offItems.status == 0, "\(offItems.stderr)")
        #expect(await waitFor("todo_2's app", watching: directory.url.path) { ran("todo_2") }, "\(daemon.log)")

        // On the item, by `item:` and by position: each toggles Alpha and starts nothing.
        let onItem = try daemon.cli(["click", "todo_1", "--wait"])
        #expect(onItem.status == 0, "\(onItem.stderr)")
        #expect(await daemon.waitFor("Alpha ticked off") { daemon.read("todos.plain") == "◉ Alpha\n" })
        let onItemByPosition = try daemon.cli(["click", "todos", "--x", "10", "--width", "200", "--wait"])
        #expect(onItemByPosition.status == 0, "\(onItemByPosition.stderr)")
        #expect(await daemon.waitFor("Alpha open again") { daemon.read("todos.plain") == "○ Alpha\n" })
        // The two app runs above had touched their files before their clicks' `--wait` returned; these clicks'
        // waits have returned too.
        #expect(!ran("todo_1") && !ran("todos"), "\(daemon.log)")
        #expect(daemon.loggedTimes("runs app:") == 2, "\(daemon.log)")
    }
}
