import Foundation
import Testing

@testable import Store

@Suite("SharedStore")
struct SharedStoreTests {
    @Test(
        "the default path follows XDG_DATA_HOME when it is absolute",
        arguments: [
            (["XDG_DATA_HOME": "/data", "HOME": "/home/u"], "/data/widgetd/store.sqlite"),
            (["XDG_DATA_HOME": "/data/", "HOME": "/home/u"], "/data/widgetd/store.sqlite"),
            (["XDG_DATA_HOME": "relative", "HOME": "/home/u"], "/home/u/.local/share/widgetd/store.sqlite"),
            (["XDG_DATA_HOME": "", "HOME": "/home/u"], "/home/u/.local/share/widgetd/store.sqlite"),
            (["HOME": "/home/u"], "/home/u/.local/share/widgetd/store.sqlite"),
        ])
    func defaultPath(environment: [String: String], expected: String) {
        #expect(SharedStore.defaultPath(environment: environment) == expected)
    }

    @Test("without HOME the password database's home is used")
    func defaultPathWithoutHome() {
        let path = SharedStore.defaultPath(environment: [:])
        #expect(path.hasPrefix("/"))
        #expect(path.hasSuffix("/.local/share/widgetd/store.sqlite"))
    }

    @Test("the store opens where asked and both stores share it")
    func opens() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let store = try SharedStore(path: directory.appending("widgetd/store.sqlite"))
        #expect(store.path == directory.appending("widgetd/store.sqlite"))
        try store.motivations.add(message: "hi")
        try store.todos.add(title: "do")
        let again = try SharedStore(path: store.path)
        #expect(try again.motivations.all().map(\.message) == ["hi"])
        #expect(try again.todos.all().map(\.title) == ["do"])
    }
}
