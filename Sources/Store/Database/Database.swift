import Basics
internal import CSQLite
import FoundationEssentials
import Glibc
import Synchronization

/// One SQLite connection to a store file, set up for several processes sharing it.
///
/// Opening switches the file to write-ahead logging (readers never wait for the writer), `synchronous=NORMAL` (safe
/// with WAL: a power cut can lose the last commits but never corrupts), foreign keys on, and a busy timeout so a
/// connection waits for another's lock instead of failing at once. Write transactions begin with `BEGIN IMMEDIATE`
/// and are retried whole on `SQLITE_BUSY`; see `transaction(_:_:)`.
///
/// ## Threads
///
/// A connection is used by one thread at a time. `Database` enforces that itself, which is why it is `Sendable`:
/// every call takes the connection's lock, and `transaction` keeps it until the transaction ends, so threads that
/// share one `Database` take turns and never see each other's unfinished transactions. `Statement` and `Row` are not
/// `Sendable`: use them on the thread that made them. For work in parallel, open one `Database` per thread; SQLite
/// then arbitrates between the connections as it does between processes. A transaction body must not wait for
/// another thread that uses the same `Database`: that thread waits for the lock the body holds.
public final class Database: @unchecked Sendable {
    /// The file this connection opened.
    public let path: String
    /// The file is on a read-only file system: it is read as it is, and a write fails with SQLite's "readonly".
    public let isReadOnly: Bool

    /// The `sqlite3 *`, closed in `deinit`; touched only while `lock` is held.
    private let handle: OpaquePointer
    /// Keeps libsqlite3 loaded while this connection is open (see `SQLiteLibrary`); released after the close.
    private let lease: SQLiteLease
    /// SQLite's functions in the loaded library: `sqlite.step` is `sqlite3_step`.
    let sqlite: widgetd_sqlite3
    /// Serialises the connection's users. A transaction body runs with it held and makes further calls on the same
    /// thread, which `holder` lets through: the project's one lock type, `Mutex`, with its holder remembered, rather
    /// than a second, recursive kind of lock.
    private let lock = Mutex<Void>(())
    /// The thread inside `lock` (its `pthread_self`), 0 when none. Only the holder can find its own id here: it
    /// stores it after taking the lock and clears it before letting go.
    private let holder = Atomic<UInt>(0)
    /// How many `transaction` calls are open on this connection; 0 outside any. Guarded by `lock`.
    private var transactionDepth = 0

    /// The busy timeout asked for at opening, in milliseconds, and the one SQLite has now (shorter under a
    /// `StoreDeadline`); the latter guarded by `lock`.
    private let busyMilliseconds: Int32
    private var appliedBusyMilliseconds: Int32

    /// How often a transaction or statement that met `SQLITE_BUSY` is run again before the error is thrown.
    let busyRetryLimit = 8
    /// How many times a transaction or statement on this connection was run again after `SQLITE_BUSY`: for a test
    /// that must see a retry happen before it lets the lock go.
    let busyRetries = Atomic<Int>(0)

    /// Opens or creates the store file at `path` (`sqlite3_open_v2`), creating its parent directory (mode 0700).
    ///
    /// - Parameter busyTimeout: how long one statement waits for another connection's lock (`sqlite3_busy_timeout`)
    ///   before SQLite gives up with `SQLITE_BUSY`.
    /// - Throws: `StoreError.walUnavailable` if the file cannot use write-ahead logging (`:memory:` cannot either),
    ///   `.cannotCreateDirectory`, `.sqliteUnavailable` if libsqlite3 cannot be loaded, and SQLite's error if the
    ///   file cannot be opened or is not a database.
    public init(path: String, busyTimeout: Duration = .milliseconds(5000)) throws(StoreError) {
        self.path = path
        isReadOnly = Self.isOnReadOnlyFileSystem(path)
        if !isReadOnly { try Self.createParentDirectory(of: path) }
        lease = try SQLiteLibrary.lease()
        let sqlite = lease.functions
        self.sqlite = sqlite
        // FULLMUTEX although `lock` already serialises use: it keeps SQLite safe should a code path ever miss it.
        if isReadOnly {
            handle = try Self.openReadOnly(path, sqlite)
        } else {
            handle = try Self.open(
                path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, sqlite)
        }
        _ = sqlite.extended_result_codes(handle, 1)
        let milliseconds =
            busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        busyMilliseconds = Int32(clamping: milliseconds)
        appliedBusyMilliseconds = busyMilliseconds
        _ = sqlite.busy_timeout(handle, busyMilliseconds)
        TextFolding.register(on: handle, with: sqlite)
        try configure()
    }

    deinit {
        // close_v2 rather than close: should a statement somehow outlive us, SQLite defers the close instead of
        // failing. Statements keep their Database alive, so in practice none is left.
        _ = sqlite.close_v2(handle)
    }

    /// `sqlite3_open_v2` of `path` (a file name, or a `file:` URI with `SQLITE_OPEN_URI`).
    private static func open(_ path: String, flags: Int32, _ sqlite: widgetd_sqlite3) throws(StoreError)
        -> OpaquePointer
    {
        var opened: OpaquePointer?
        let status = sqlite.open_v2(path, &opened, flags, nil)
        guard let opened else {
            throw .sqlite(code: status, extendedCode: status, message: "out of memory opening \(path)", sql: nil)
        }
        guard status == SQLITE_OK else {
            // sqlite3_open_v2 hands back a handle even on failure, only so the message can be read; then it must go.
            let message = sqlite.errmsg(opened).map { String(cString: $0) } ?? "out of memory"
            _ = sqlite.close_v2(opened)
            throw .sqlite(code: status & 0xFF, extendedCode: status, message: "\(message) (\(path))", sql: nil)
        }
        return opened
    }

    /// A store on a read-only file system (a snapshot, a read-only bind mount of a home directory) is still read.
    /// SQLite cannot make the WAL's shared-memory file there, so a WAL-mode file opened read-only cannot be read unless
    /// its `-shm` and `-wal` files are already there; without them it is opened as immutable, which takes no locks
    /// and reads the file as it is, as nothing can write it through this mount.
    private static func openReadOnly(_ path: String, _ sqlite: widgetd_sqlite3) throws(StoreError) -> OpaquePointer {
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_URI
        if access(path + "-shm", R_OK) == 0 {
            return try open(uri(path, immutable: false), flags: flags, sqlite)
        }
        return try open(uri(path, immutable: true), flags: flags, sqlite)
    }

    /// `path` as a `file:` URI: the characters that URIs give a meaning escaped.
    private static func uri(_ path: String, immutable: Bool) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "file:" + escaped + (immutable ? "?immutable=1" : "")
    }

    /// Whether the file system that holds (or would hold) `path` is mounted read-only (`statvfs`'s `ST_RDONLY`), looked
    /// up at the nearest directory above it that exists.
    private static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var directory = Path.directory(of: path)
        while true {
            var info = statvfs()
            if statvfs(directory.isEmpty ? "." : directory, &info) == 0 {
                return info.f_flag & UInt(ST_RDONLY) != 0
            }
            guard errno == ENOENT, !directory.isEmpty, directory != "/" else { return false }
            directory = Path.directory(of: directory)
        }
    }

    /// Sets the pragmas every connection needs; the busy timeout is already in place, since switching a fresh file
    /// to WAL takes a lock another process may be holding. A read-only store keeps the journal mode it has.
    private func configure() throws(StoreError) {
        if isReadOnly {
            try execute("PRAGMA foreign_keys=ON")
            return
        }
        let mode = try fetch("PRAGMA journal_mode=WAL", []) { $0.string(at: 0) ?? "" }.first ?? ""
        guard mode.lowercased() == "wal" else {
            throw .walUnavailable(path: path, journalMode: mode)
        }
        try execute("PRAGMA synchronous=NORMAL")
        try execute("PRAGMA foreign_keys=ON")
    }

    /// Creates the missing directories above `path` one by one with mode 0700: the store holds personal notes,
    /// and a directory that already exists keeps the mode its owner gave it.
    private static func createParentDirectory(of path: String) throws(StoreError) {
        let parent = Path.directory(of: path)
        guard !parent.isEmpty else { return }
        var prefix = parent.hasPrefix("/") ? "" : "."
        for component in parent.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw .cannotCreateDirectory(path: prefix, errno: errno)
            }
        }
    }

    // MARK: - Running SQL

    /// Runs one or more `;`-separated statements that return no rows worth reading, such as a schema script.
    ///
    /// Each statement is prepared and stepped on its own, so an error names the statement that failed rather than
    /// the whole script.
    public func execute(_ sql: String) throws(StoreError) {
        try withHandle { _ throws(StoreError) in
            var remaining = Substring(sql)
            while let (statement, rest) = try prepareFirst(of: remaining) {
                try forEachRow(of: statement, wrap: Database.keep) { (_: Row) throws(StoreError) in }
                remaining = rest
            }
        }
    }

    /// Runs one statement with `bindings` for its parameters (`?`, `?NNN`, `:name`, in order), discarding rows.
    public func execute(_ sql: String, _ bindings: (any SQLBindable)?...) throws(StoreError) {
        try run(sql, bindings)
    }

    /// Prepares one statement (`sqlite3_prepare_v2`) for binding and stepping by hand.
    public func prepare(_ sql: String) throws(StoreError) -> Statement {
        try Statement.prepareOne(database: self, sql: sql)
    }

    /// Runs one statement and maps each row it returns with `map`.
    ///
    /// Outside a transaction a statement that meets `SQLITE_BUSY` before its first row is run again after a short
    /// pause, so `map` may see rows only from the final run.
    public func query<T>(
        _ sql: String, _ bindings: (any SQLBindable)?..., map: (Row) throws -> T
    ) throws -> [T] {
        try rows(sql, bindings, wrap: { $0 as any Error }, map: map)
    }

    /// `PRAGMA user_version`: the schema version the migrations keep; set it with `setUserVersion(_:)`.
    ///
    /// A read-only property plus a function rather than one settable property, because reading can fail and a Swift
    /// property cannot both throw and have a setter.
    public var userVersion: Int {
        get throws(StoreError) { try fetch("PRAGMA user_version", []) { $0.int(at: 0) }.first ?? 0 }
    }

    /// Sets `PRAGMA user_version` (pragmas take no parameters, hence the integer in the text).
    public func setUserVersion(_ version: Int) throws(StoreError) {
        try execute("PRAGMA user_version = \(Int32(clamping: version))")
    }

    /// The rowid of the last row this connection inserted (`sqlite3_last_insert_rowid`).
    ///
    /// Read it inside the transaction that inserted: outside one, another thread sharing this `Database` may have
    /// inserted since.
    public var lastInsertRowID: Int64 {
        withHandle { sqlite.last_insert_rowid($0) }
    }

    /// Rows changed by the last `INSERT`, `UPDATE` or `DELETE` on this connection (`sqlite3_changes`).
    public var changes: Int {
        withHandle { Int(sqlite.changes($0)) }
    }

    /// Whether a transaction is open on this connection (`sqlite3_get_autocommit` is 0).
    public var isInTransaction: Bool {
        withHandle { sqlite.get_autocommit($0) == 0 }
    }

    // MARK: - Internals shared with Statement and the stores

    /// Runs `body` with the connection, holding the lock so no other thread uses it meanwhile.
    func withHandle<T, E: Error>(_ body: (OpaquePointer) throws(E) -> T) throws(E) -> T {
        let thread = UInt(bitPattern: Int(bitPattern: pthread_self()))
        if holder.load(ordering: .sequentiallyConsistent) == thread {
            // Called again from inside: a transaction body's own statements.
            applyDeadline()
            return try body(handle)
        }
        return try lock.withLock { _ throws(E) -> T in
            holder.store(thread, ordering: .sequentiallyConsistent)
            defer { holder.store(0, ordering: .sequentiallyConsistent) }
            applyDeadline()
            return try body(handle)
        }
    }

    /// Shortens the busy timeout to what is left before the task's `StoreDeadline`, or restores it when there is
    /// none; call with the lock held. Changed only when it differs, since this runs for every statement.
    private func applyDeadline() {
        var milliseconds = busyMilliseconds
        if let deadline = StoreDeadline.current {
            milliseconds = min(milliseconds, Int32(clamping: max(0, Int(deadline.timeIntervalSinceNow * 1000))))
        }
        guard milliseconds != appliedBusyMilliseconds else { return }
        _ = sqlite.busy_timeout(handle, milliseconds)
        appliedBusyMilliseconds = milliseconds
    }

    /// The error SQLite just reported for `status`, with its message; call with the lock held.
    func error(_ status: Int32, sql: String?) -> StoreError {
        .sqlite(
            code: status & 0xFF, extendedCode: sqlite.extended_errcode(handle),
            message: sqlite.errmsg(handle).map { String(cString: $0) } ?? "out of memory", sql: sql)
    }

    /// Runs one statement with positional bindings, discarding rows.
    func run(_ sql: String, _ bindings: [(any SQLBindable)?]) throws(StoreError) {
        _ = try rows(sql, bindings, wrap: Database.keep) { (_: Row) throws(StoreError) in () }
    }

    /// Runs one statement once, without the retry on `SQLITE_BUSY`, discarding rows.
    func runOnce(_ sql: String) throws(StoreError) {
        let statement = try Statement.prepareOne(database: self, sql: sql)
        while try statement.step() {}
    }

    /// Runs one statement with positional bindings and maps its rows, with typed errors for the stores.
    func fetch<T>(_ sql: String, _ bindings: [(any SQLBindable)?], map: (Row) -> T) throws(StoreError) -> [T] {
        try rows(sql, bindings, wrap: Database.keep) { (row: Row) throws(StoreError) in map(row) }
    }

    /// The core of `query` and `fetch`: generic over the error type so both can share it, with `wrap` turning the
    /// store's own errors into the caller's.
    private func rows<T, E: Error>(
        _ sql: String, _ bindings: [(any SQLBindable)?], wrap: (StoreError) -> E, map: (Row) throws(E) -> T
    ) throws(E) -> [T] {
        try withHandle { _ throws(E) in
            let statement: Statement
            do throws(StoreError) {
                statement = try Statement.prepareOne(database: self, sql: sql)
                for (offset, value) in bindings.enumerated() {
                    try statement.bind(value, at: offset + 1)
                }
            } catch {
                throw wrap(error)
            }
            var results: [T] = []
            try forEachRow(of: statement, wrap: wrap) { row throws(E) in results.append(try map(row)) }
            return results
        }
    }

    /// Steps `statement` to the end, handing each row to `body`.
    ///
    /// Outside a transaction each statement is its own transaction, so one that failed with `SQLITE_BUSY` before
    /// producing a row changed nothing and can simply run again; inside a transaction the error goes up to
    /// `transaction`, which retries the whole of it.
    func forEachRow<E: Error>(
        of statement: Statement, wrap: (StoreError) -> E, _ body: (Row) throws(E) -> Void
    ) throws(E) {
        try withHandle { handle throws(E) in
            let standalone = sqlite.get_autocommit(handle) != 0
            var attempt = 0
            var delivered = false
            while true {
                let hasRow: Bool
                do throws(StoreError) {
                    hasRow = try statement.step()
                } catch {
                    statement.reset()
                    guard error.isBusy, standalone, !delivered, attempt < busyRetryLimit, !StoreDeadline.hasPassed
                    else {
                        throw wrap(error)
                    }
                    attempt += 1
                    busyRetries.add(1, ordering: .relaxed)
                    Self.pause(beforeRetry: attempt)
                    continue
                }
                guard hasRow else { break }
                delivered = true
                try body(Row(statement: statement))
            }
            statement.reset()
        }
    }

    /// Splits the first statement off `sql` and prepares it; nil when only white space and comments are left.
    private func prepareFirst(of sql: Substring) throws(StoreError) -> (Statement, Substring)? {
        let (statement, rest) = try Statement.prepareFirst(database: self, sql: sql)
        guard let statement else { return nil }
        return (statement, rest)
    }

    /// The `wrap` for callers whose error type is `StoreError` itself.
    static func keep(_ error: StoreError) -> StoreError { error }

    /// Sleeps before retry number `attempt`: exponential from 2 ms up to 256 ms, with jitter so two processes that
    /// collided do not collide again in step.
    static func pause(beforeRetry attempt: Int) {
        let base = 0.002 * Double(1 << min(attempt - 1, 7))
        usleep(useconds_t(base * Double.random(in: 0.5...1.5) * 1_000_000))
    }

    // MARK: - Transactions (bookkeeping used by Database+Transaction)

    /// Opens a nesting level and returns its depth before opening; call with the lock held.
    func enterTransaction() -> Int {
        defer { transactionDepth += 1 }
        return transactionDepth
    }

    /// Closes the innermost nesting level; call with the lock held.
    func leaveTransaction() {
        transactionDepth -= 1
    }
}
