import Foundation
import TestSupport
import Testing

/// Which store `todos` edits with a daemon running (`StoreLocation`): the daemon's, whatever config the command is
/// given, with the commands run in this process against the driven daemon (`DrivenDaemon`). The cases with no daemon
/// stay in widgetdTests' `StoreLocationTests`.
@Suite("the store the CLI edits, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenStoreLocationTests {
    @Test func theRunningDaemonsStoreWhateverConfigTheCLIIsGiven() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The store the config names, where `widgetd run` puts it (`~` is the daemon's HOME).
        let store = directory.url.path + "/home/mystore/store.sqlite"
        let driven = try DrivenDaemon(
            config:
                "settings:\n  store: ~/mystore/store.sqlite\nwidgets:\n  todo:\n    kind: todos\n    output: [plain]\n",
            in: directory, configIn: "elsewhere", store: store)
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("todo") })
        // No --config, and no config at the default path: the daemon's store, not the default one.
        let added = driven.commandAsGiven(["todos", "add", "Buy milk"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(driven.turns(until: "the first to-do") { driven.read("todo.plain")?.contains("Buy milk") == true })
        // Another config, which names no store: still the daemon's, as `reload` talks to that daemon.
        let other = try directory.write("other.yaml", "widgets:\n  t:\n    kind: todos\n")
        let second = driven.command(["todos", "add", "Call mom"], config: other)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(driven.turns(until: "the second to-do") { driven.read("todo.plain")?.contains("Call mom") == true })
        #expect(FileManager.default.fileExists(atPath: store))
        #expect(!FileManager.default.fileExists(atPath: directory.url.path + "/data/widgetd/store.sqlite"))
    }
}
