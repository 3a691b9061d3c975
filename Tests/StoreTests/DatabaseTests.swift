import Foundation
import Synchronization
import Testing

@testable import Store

@Suite("Database")
struct DatabaseTests {
    @Test("opening turns on WAL, NORMAL sync, foreign keys; a write makes the -wal file")
    func pragmas() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.storePath)

        #expect(try database.query("PRAGMA journal_mode") { $0.string(at: 0) } == ["wal"])
        #expect(try database.query("PRAGMA synchronous") { $0.int(at: 0) } == [1])
        #expect(try database.query("PRAGMA foreign_keys") { $0.int(at: 0) } == [1])
        #expect(try database.query("PRAGMA busy_timeout") { $0.int(at: 0) } == [5000])

        try database.execute("CREATE TABLE t(x)")
        try database.execute("INSERT INTO t VALUES (1)")
        #expect(fileStatus(directory.storePath + "-wal") != nil, "a write in WAL mode goes to the -wal file")
        withExtendedLifetime(database) {}
    }

    @Test("the parent directory is created with mode 0700")
    func createsParentDirectory() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("a/b/store.sqlite")
        _ = try Database(path: path)
        for created in [directory.appending("a"), directory.appending("a/b")] {
            let status = try #require(fileStatus(created))
            #expect(status.st_mode & 0o777 == 0o700, "\(created)")
        }
    }

    @Test("a file that is not a database is refused with SQLite's message")
    func notADatabase() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: directory.storePath))
        let error = #expect(throws: StoreError.self) { try Database(path: directory.storePath) }
        #expect(error?.sqliteCode == 26)
        #expect(error?.description.contains("file is not a database") == true)
    }

    @Test("a database without write-ahead logging is refused")
    func walRequired() throws {
        let error = #expect(throws: StoreError.self) { try Database(path: ":memory:") }
        #expect(error == .walUnavailable(path: ":memory:", journalMode: "memory"))
    }

    @Test("a parent that is a file is reported with the directory and errno")
    func parentIsAFile() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        #expect(FileManager.default.createFile(atPath: directory.appending("file"), contents: Data()))
        let error = #expect(throws: StoreError.self) { try Database(path: directory.appending("file/sub/s.sqlite")) }
        #expect(error == .cannotCreateDirectory(path: directory.appending("file/sub"), errno: ENOTDIR))
        #expect(error?.description == "cannot create directory \(directory.appending("file/sub")): Not a directory")
    }

    @Test("every value type binds and reads back, by index and by name")
    func bindings() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.storePath)
        try database.execute("CREATE TABLE t(i, j, d, s, b, n, flag, empty_s, empty_b)")
        let insert = try database.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, :flag, @es, $eb)")
        #expect(insert.parameterCount == 9)
        try insert.bind(42, at: 1)
        try insert.bind(Int64.max, at: 2)
        try insert.bind(2.5, at: 3)
        try insert.bind("héllo\u{0}wörld", at: 4)
        try insert.bind(Data([0, 1, 2, 255]), at: 5)
        try insert.bind(nil, at: 6)
        try insert.bind(true, named: "flag")
        try insert.bind("", named: "@es")
        try insert.bind(Data(), named: "eb")
        #expect(try insert.step() == false)
        #expect(database.changes == 1)
        #expect(database.lastInsertRowID == 1)

        let select = try database.prepare("SELECT i, j, d, s, b, n, flag, empty_s, empty_b, typeof(empty_b) FROM t")
        #expect(try select.step())
        #expect(select.columnCount == 10)
        #expect(select.columnName(at: 3) == "s")
        #expect(select.int(at: 0) == 42)
        #expect(select.int64(at: 1) == Int64.max)
        #expect(select.double(at: 2) == 2.5)
        #expect(select.string(at: 3) == "héllo\u{0}wörld")
        #expect(select.data(at: 4) == Data([0, 1, 2, 255]))
        #expect(select.isNull(at: 5))
        #expect(select.string(at: 5) == nil)
        #expect(select.bool(at: 6))
        #expect(select.string(at: 7) == "", "an empty string stays text, not NULL")
        #expect(select.data(at: 8) == Data(), "an empty blob stays a blob, not NULL")
        #expect(select.string(at: 9) == "blob")
        #expect(try select.step() == false)

        let error = #expect(throws: StoreError.self) { try insert.bind(1, named: "nope") }
        #expect(error?.description.contains("no parameter named 'nope'") == true)
    }

    @Test("query binds variadic values, nil included")
    func queryBindings() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.storePath)
        let message: String? = nil
        let row = try database.query("SELECT ?, ?, ? IS NULL, ?", 7, "x", message, false) {
            "\($0.int(at: 0)) \($0.string(at: 1) ?? "-") \($0.bool(at: 2)) \($0.bool(at: 3))"
        }
        #expect(row == ["7 x true false"])
    }

    @Test("a transaction that throws leaves no row behind")
    func rollbackOnThrow() throws {
        struct Abandon: Error {}
        let directory = try TestDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.storePath)
        try database.execute("CREATE TABLE t(x)")

        #expect(throws: Abandon.self) {
            try database.transaction {
                try database.execute("INSERT INTO t VALUES (?)", 1)
                #expect(try database.query("SELECT count(*) FROM t") { $0.int(at: 0) } == [1])
                throw Abandon()
            }
        }
        #expect(try database.query("SELECT count(*) FROM t") { $0.int(at: 0) } == [0])
        #expect(!database.isInTransaction)

        let value = try database.transaction { () throws -> Int in
            try database.execute("INSERT INTO t VALUES (?)", 2)
            return 2
        }
        #expect(value == 2)
        #expect(try database.query("SELECT x FROM t") { $0.int(at: 0) } == [2])
        // The throw let go of the connection: other threads use it, and none of them is taken for the holder.
        let counts = Collected<Int>()
        #expect(
            onThreads(2) { _ in
                counts.append((try? database.query("SELECT count(*) FROM t") { $0.int(at: 0) })?[0] ?? -1)
            })
        #expect(counts.values == [1, 1])
    }

    @Test("a nested transaction is a savepoint: its throw undoes only its own work")
    func nestedSavepoint() throws {
        struct Abandon: Error {}
        let directory = try TestDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.storePath)
        try database.execute("CREATE TABLE t(x)")

        try database.transaction {
            try database.execute("INSERT INTO t VALUES ('outer')")
            #expect(throws: Abandon.self) {
                try database.transaction {
                    try database.execute("INSERT INTO t VALUES ('inner')")
                    throw Abandon()
                }
            }
            try database.transaction {
                try database.execute("INSERT INTO t VALUES ('kept')")
            }
        }
        #expect(try database.query("SELECT x FROM t ORDER BY rowid") { $0.string(at: 0) } == ["outer", "kept"])

        // And the inner commit means nothing if the outer one rolls back.
        #expect(throws: Abandon.self) {
            try database.transaction {
                try database.transaction { try database.execute("INSERT INTO t VALUES ('lost')") }
                throw Abandon()
            }
        }
        #expect(try database.query("SELECT count(*) FROM t") { $0.int(at: 0) } == [2])
    }

    @Test("errors carry SQLite's code, message and the statement")
    func errorMessages() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.storePath)
        try database.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
        try database.execute("INSERT INTO t(name) VALUES ('a')")

        let unique = #expect(throws: StoreError.self) { try database.execute("INSERT INTO t(name) VALUES (?)", "a") }
        #expect(
            unique?.description
                == "SQLite error 19: UNIQUE constraint failed: t.name — while executing `INSERT INTO t(name) VALUES (?)`"
        )
        #expect(
            unique
                == .sqlite(
                    code: 19, extendedCode: 2067, message: "UNIQUE constraint failed: t.name",
                    sql: "INSERT INTO t(name) VALUES (?)"))

        let syntax = #expect(throws: StoreError.self) {
            try database.execute("INSERT INTO t(name) VALUES ('b');\n  SELEC 1;\nINSERT INTO t(name) VALUES ('c')")
        }
        #expect(syntax?.sqliteCode == 1)
        #expect(syntax?.description == "SQLite error 1: near \"SELEC\": syntax error — while executing `SELEC 1;`")
        #expect(try database.query("SELECT name FROM t ORDER BY id") { $0.string(at: 0) } == ["a", "b"])

        let two = #expect(throws: StoreError.self) { _ = try database.prepare("SELECT 1; SELECT 2") }
        #expect(two?.description.contains("more than one statement") == true)

        let multiline = #expect(throws: StoreError.self) {
            try database.execute(
                """
                SELECT something
                FROM   nowhere
                """)
        }
        #expect(
            multiline?.description
                == "SQLite error 1: no such table: nowhere — while executing `SELECT something FROM nowhere`")
    }

    @Test("user_version reads and writes")
    func userVersion() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.storePath)
        #expect(try database.userVersion == 0)
        try database.setUserVersion(7)
        #expect(try database.userVersion == 7)
    }

    @Test("a writer that finds the lock taken waits under the busy timeout, longer than its retries alone would")
    func busyTimeoutWaits() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let holder = try Database(path: directory.storePath)
        try holder.execute("CREATE TABLE t(x)")
        try holder.execute("BEGIN IMMEDIATE")
        try holder.execute("INSERT INTO t VALUES ('holder')")
        let writer = try Database(path: directory.storePath)
        #expect(try writer.query("PRAGMA busy_timeout") { $0.int(at: 0) } == [5000])

        // Without the busy timeout the writer's BEGIN fails at once and the transaction is run again after pauses
        // that add up to at most `retries` (`Database.pause` at its longest); the lock is held past that, well
        // inside the 5 s timeout, so only SQLite's own busy wait lets the writer through. Holding the lock for a
        // while is the point here, so this sleep is the test, not a wait for an event.
        let retries = (1...writer.busyRetryLimit).reduce(0.0) { $0 + 0.002 * Double(1 << min($1 - 1, 7)) * 1.5 }
        async let written: Void = onItsOwnThread {
            try writer.transaction { try writer.execute("INSERT INTO t VALUES ('writer')") }
        }
        try await Task.sleep(for: .seconds(retries + 0.4))
        try holder.execute("COMMIT")
        try await written
        #expect(try writer.query("SELECT x FROM t ORDER BY rowid") { $0.string(at: 0) } == ["holder", "writer"])
    }

    @Test("with no busy timeout at all, the transaction is retried until the lock frees")
    func busyRetry() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let holder = try Database(path: directory.storePath)
        try holder.execute("CREATE TABLE t(x)")
        try holder.execute("BEGIN IMMEDIATE")
        let writer = try Database(path: directory.storePath, busyTimeout: .zero)
        let attempts = Mutex(0)
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        // A thread of its own, not a task: this test blocks its own thread while it waits, and a task might wait for
        // that thread.
        Thread {
            let result = Result {
                try writer.transaction {
                    attempts.withLock { $0 += 1 }
                    try writer.execute("INSERT INTO t VALUES (1)")
                }
            }
            outcome.withLock { $0 = result }
        }.start()
        // The lock goes only once the writer has met it and is pausing to try again: without the retry, its
        // transaction fails.
        #expect(Self.waitUpTo10s { writer.busyRetries.load(ordering: .relaxed) > 0 }, "the writer never met the lock")
        try holder.execute("COMMIT")
        #expect(Self.waitUpTo10s { outcome.withLock { $0 != nil } }, "the writer never finished")
        try outcome.withLock { $0 }?.get()
        #expect(try writer.query("SELECT count(*) FROM t") { $0.int(at: 0) } == [1])
        #expect(attempts.withLock { $0 } == 1, "BEGIN IMMEDIATE failed, not the body")
    }

    /// Polls `done` every millisecond for at most 10 s.
    private static func waitUpTo10s(_ done: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !done() {
            if Date() > deadline { return false }
            usleep(1_000)
        }
        return true
    }

    @Test("a lock that never frees ends in SQLITE_BUSY after the bounded retries")
    func busyGivesUp() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let holder = try Database(path: directory.storePath)
        try holder.execute("CREATE TABLE t(x)")
        try holder.execute("BEGIN IMMEDIATE")
        let writer = try Database(path: directory.storePath, busyTimeout: .zero)
        let error = #expect(throws: StoreError.self) {
            try writer.transaction { try writer.execute("INSERT INTO t VALUES (1)") }
        }
        #expect(error?.isBusy == true)
        #expect(error?.description.contains("database is locked") == true)
        try holder.execute("ROLLBACK")
    }

    @Test("under a StoreDeadline a writer stops waiting for the lock at the deadline, and nothing of it lands")
    func deadlineEndsTheWait() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let holder = try Database(path: directory.storePath)
        try holder.execute("CREATE TABLE t(x)")
        try holder.execute("BEGIN IMMEDIATE")
        // The lock goes after a second: well inside the 5 s busy timeout, so only the deadline makes the write fail.
        let released = DispatchSemaphore(value: 0)
        Thread {
            Thread.sleep(forTimeInterval: 1)
            try? holder.execute("COMMIT")
            released.signal()
        }.start()

        let writer = try Database(path: directory.storePath)
        var attempts = 0
        let error = #expect(throws: StoreError.self) {
            try StoreDeadline.$current.withValue(Date().addingTimeInterval(0.1)) {
                try writer.transaction {
                    attempts += 1
                    try writer.execute("INSERT INTO t VALUES ('late')")
                }
            }
        }
        #expect(error?.isBusy == true)
        #expect(attempts == 0, "BEGIN IMMEDIATE failed, so the body never ran")
        released.wait()
        #expect(try writer.query("SELECT count(*) FROM t") { $0.int(at: 0) } == [0])
        // Without a deadline the connection waits under its busy timeout again.
        try writer.transaction { try writer.execute("INSERT INTO t VALUES ('after')") }
        #expect(try writer.query("SELECT x FROM t") { $0.string(at: 0) } == ["after"])
    }

    @Test("a deferred transaction whose snapshot went stale (SQLITE_BUSY_SNAPSHOT) is run again whole")
    func busySnapshotRetried() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let reader = try Database(path: directory.storePath)
        try reader.execute("CREATE TABLE counter(n INTEGER)")
        try reader.execute("INSERT INTO counter VALUES (0)")
        let other = try Database(path: directory.storePath)

        var attempts = 0
        try reader.transaction(.deferred) {
            attempts += 1
            let n = try reader.query("SELECT n FROM counter") { $0.int(at: 0) }[0]
            if attempts == 1 {
                // Another connection commits after our read: our snapshot can no longer become a write.
                try other.execute("UPDATE counter SET n = n + 1")
            }
            try reader.execute("UPDATE counter SET n = ?", n + 1)
        }
        #expect(attempts == 2)
        #expect(try reader.query("SELECT n FROM counter") { $0.int(at: 0) } == [2], "neither increment is lost")
    }

    @Test("one Database shared by threads: each transaction runs alone")
    func sharedConnection() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.storePath)
        try database.execute("CREATE TABLE counter(n INTEGER)")
        try database.execute("INSERT INTO counter VALUES (0)")
        let errors = Collected<String>()
        let finished = onThreads(4) { _ in
            for _ in 0..<100 {
                do {
                    try database.transaction {
                        // A read then a write in Swift: safe only because no other thread runs in between.
                        let n = try database.query("SELECT n FROM counter") { $0.int(at: 0) }[0]
                        try database.execute("UPDATE counter SET n = ?", n + 1)
                    }
                } catch {
                    errors.append("\(error)")
                }
            }
        }
        #expect(finished)
        #expect(errors.values == [])
        #expect(try database.query("SELECT n FROM counter") { $0.int(at: 0) } == [400])
    }
}
