import Foundation

@testable import Store

/// A store in a fresh directory, kept alive with the directory for one test.
struct StoreFixture {
    let directory: TestDirectory
    let store: SharedStore

    init() throws {
        directory = try TestDirectory()
        store = try SharedStore(path: directory.storePath)
    }

    var motivations: MotivationStore { store.motivations }
    var todos: TodoStore { store.todos }

    func remove() { directory.remove() }

    /// Inserts a motivation with a chosen id, for tests about ids.
    func insertMotivation(id: String, message: String?, timestamp: Double = 1_000) throws {
        try store.database.execute(
            "INSERT INTO motivations(id, message, timestamp) VALUES (?, ?, ?)", id, message, timestamp)
    }
}
