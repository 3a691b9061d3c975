import Foundation
import Testing

@testable import Store

@Suite("Migrations")
struct MigrationTests {
    @Test("a version-1 file from the seed's first model migrates to version 2 with its rows intact")
    func fromVersionOne() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let ids = (0..<3).map { _ in RecordID.make() }
        do {
            // Written by hand, as the first release's migration left it.
            let old = try Database(path: directory.storePath)
            try old.execute(
                """
                CREATE TABLE motivations(id TEXT PRIMARY KEY, message TEXT, timestamp REAL NOT NULL);
                PRAGMA user_version = 1;
                """)
            try old.execute("INSERT INTO motivations VALUES (?, ?, ?)", ids[0], "Keep going!", 1_700_000_000.0)
            try old.execute("INSERT INTO motivations VALUES (?, ?, ?)", ids[1], nil, 1_700_000_100.5)
            try old.execute("INSERT INTO motivations VALUES (?, ?, ?)", ids[2], "Café ☕️ — 頑張って", 1_700_000_200.0)
        }

        let store = try SharedStore(path: directory.storePath)
        #expect(try store.database.userVersion == 3)
        let all = try store.motivations.all()
        #expect(all.map(\.id) == [ids[2], ids[1], ids[0]])
        #expect(all.map(\.message) == ["Café ☕️ — 頑張って", nil, "Keep going!"])
        #expect(all.map(\.timestamp.timeIntervalSince1970) == [1_700_000_200.0, 1_700_000_100.5, 1_700_000_000.0])
        #expect(all.allSatisfy { !$0.isFavorite })
        #expect(all.allSatisfy { $0.backgroundColorHex == "#D3D3D3" })
        let tables = try store.database.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            $0.string(at: 0) ?? ""
        }
        #expect(tables == ["motivations", "todos"])
        #expect(try store.todos.all() == [])
    }

    @Test("a fresh file gets every step, and reopening changes nothing")
    func freshFile() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.storePath)
        #expect(try Migrations.migrate(database) == (from: 0, to: 3))
        #expect(try Migrations.migrate(database) == (from: 3, to: 3))
        let indexes = try database.query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
        ) { $0.string(at: 0) ?? "" }
        #expect(indexes == ["motivations_by_timestamp", "todos_by_creation"])
    }

    @Test("a file from a newer widgetd is refused and left as it was")
    func newerVersionRefused() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        do {
            let newer = try Database(path: directory.storePath)
            try newer.execute("CREATE TABLE future(x); PRAGMA user_version = 99;")
        }
        let error = #expect(throws: StoreError.self) { try SharedStore(path: directory.storePath) }
        #expect(error == .unsupportedSchemaVersion(path: directory.storePath, found: 99, newestKnown: 3))
        #expect(error?.description.contains("schema version 99, but this widgetd knows versions up to 3") == true)

        let database = try Database(path: directory.storePath)
        #expect(try database.userVersion == 99)
        #expect(try database.query("SELECT name FROM sqlite_master") { $0.string(at: 0) ?? "" } == ["future"])
    }

    @Test("processes opening a fresh file at once migrate it once")
    func concurrentFirstOpen() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let errors = Collected<String>()
        let path = directory.storePath
        let finished = onThreads(6) { _ in
            do {
                _ = try SharedStore(path: path)
            } catch {
                errors.append("\(error)")
            }
        }
        #expect(finished)
        #expect(errors.values == [])
        #expect(try SharedStore(path: path).database.userVersion == 3)
    }
}
