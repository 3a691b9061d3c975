import Basics
internal import CSQLite
import FoundationEssentials

/// Tells SQLite to copy a bound string or blob before the bind call returns (`SQLITE_TRANSIENT`).
///
/// Swift does not import the C macro, which is the destructor pointer -1; Swift's buffers for a `String` or `Data`
/// argument live only for the duration of the call, so SQLite must not keep pointing into them.
let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One prepared SQL statement (`sqlite3_stmt`), finalized when the object is released.
///
/// Parameters are numbered from 1 and result columns from 0, as in SQLite's own API. Not `Sendable`: a statement
/// belongs to the thread that prepared it (see `Database`). It keeps its `Database` alive, since a statement must be
/// finalized before its connection closes.
public final class Statement {
    /// The statement's SQL text, as errors quote it.
    public let sql: String

    let database: Database
    /// The `sqlite3_stmt *`, finalized in `deinit`.
    private let handle: OpaquePointer

    /// Prepares `sql`, which must hold exactly one statement.
    static func prepareOne(database: Database, sql: String) throws(StoreError) -> Statement {
        let (first, rest) = try Self.prepareFirst(database: database, sql: Substring(sql))
        guard let first else {
            throw .sqlite(code: SQLITE_MISUSE, extendedCode: SQLITE_MISUSE, message: "no SQL statement", sql: sql)
        }
        guard rest.allSatisfy(\.isWhitespace) else {
            // Anything after the first statement would be silently ignored by sqlite3_prepare_v2.
            throw .sqlite(
                code: SQLITE_MISUSE, extendedCode: SQLITE_MISUSE,
                message: "more than one statement; use execute(_:) for a script", sql: sql)
        }
        return first
    }

    private init(database: Database, sql: String, handle: OpaquePointer) {
        self.database = database
        self.sql = sql
        self.handle = handle
    }

    deinit {
        database.withHandle { _ in _ = database.sqlite.finalize(handle) }
    }

    /// Prepares the first statement in `sql` (`sqlite3_prepare_v2`) and returns it with the text after it; the
    /// statement is nil when only white space, comments and empty statements were left.
    static func prepareFirst(database: Database, sql: Substring) throws(StoreError) -> (Statement?, Substring) {
        // One locked stretch, so the message read after a failure is this statement's and not another thread's.
        try database.withHandle { connection throws(StoreError) in
            var remaining = sql
            while !remaining.isEmpty {
                let utf8 = Array(remaining.utf8)
                var prepared: OpaquePointer?
                var consumed = utf8.count
                let status = utf8.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { text in
                        var tail: UnsafePointer<CChar>?
                        let status = database.sqlite.prepare_v2(
                            connection, text.baseAddress, Int32(text.count), &prepared, &tail)
                        if let tail, let start = text.baseAddress { consumed = tail - start }
                        return status
                    }
                }
                guard status == SQLITE_OK else {
                    let error = database.error(status, sql: Self.failedStatement(utf8, stoppedAt: consumed))
                    _ = database.sqlite.finalize(prepared)
                    throw error
                }
                let statementText = String(decoding: utf8[..<consumed], as: UTF8.self)
                    .trimmingWhitespace()
                remaining = remaining[remaining.utf8.index(remaining.utf8.startIndex, offsetBy: consumed)...]
                if let prepared {
                    return (Statement(database: database, sql: statementText, handle: prepared), remaining)
                }
            }
            return (nil, remaining)
        }
    }

    /// The text of a statement that failed to prepare: on failure the tail points where parsing stopped, so the
    /// quote runs on to the end of that statement.
    private static func failedStatement(_ utf8: [UInt8], stoppedAt offset: Int) -> String {
        let end = utf8[offset...].firstIndex(of: UInt8(ascii: ";")).map { $0 + 1 } ?? utf8.count
        return String(decoding: utf8[..<end], as: UTF8.self).trimmingWhitespace()
    }

    // MARK: - Binding

    /// Binds `value` to parameter `index` (from 1); nil binds `NULL`.
    public func bind(_ value: (any SQLBindable)?, at index: Int) throws(StoreError) {
        try database.withHandle { _ throws(StoreError) in
            let position = Int32(clamping: index)
            let status: Int32
            switch value?.sqlValue ?? .null {
            case .null:
                status = database.sqlite.bind_null(handle, position)
            case .integer(let number):
                status = database.sqlite.bind_int64(handle, position, number)
            case .real(let number):
                status = database.sqlite.bind_double(handle, position, number)
            case .text(let text):
                // The explicit byte count keeps an embedded NUL; Swift's bridged C string is never a null pointer,
                // so an empty string binds as '' rather than NULL.
                status = database.sqlite.bind_text(
                    handle, position, text, Int32(clamping: text.utf8.count), SQLITE_TRANSIENT)
            case .blob(let bytes):
                if bytes.isEmpty {
                    // A null pointer would bind NULL; an empty blob is a zero-length blob.
                    status = database.sqlite.bind_zeroblob(handle, position, 0)
                } else {
                    status = bytes.withUnsafeBytes {
                        database.sqlite.bind_blob(
                            handle, position, $0.baseAddress, Int32(clamping: $0.count), SQLITE_TRANSIENT)
                    }
                }
            }
            guard status == SQLITE_OK else { throw database.error(status, sql: sql) }
        }
    }

    /// Binds `value` to the parameter called `name` (`:name`, `@name` or `$name`; the prefix may be left out).
    public func bind(_ value: (any SQLBindable)?, named name: String) throws(StoreError) {
        let spellings = name.first.map { ":@$".contains($0) } == true ? [name] : [":" + name, "@" + name, "$" + name]
        let index: Int32 = database.withHandle { _ in
            let found = spellings.lazy.map { self.database.sqlite.bind_parameter_index(self.handle, $0) }.first {
                $0 > 0
            }
            return found ?? 0
        }
        guard index > 0 else {
            throw .sqlite(
                code: SQLITE_RANGE, extendedCode: SQLITE_RANGE, message: "no parameter named '\(name)'", sql: sql)
        }
        try bind(value, at: Int(index))
    }

    /// How many parameters the statement has (`sqlite3_bind_parameter_count`).
    public var parameterCount: Int {
        database.withHandle { _ in Int(database.sqlite.bind_parameter_count(handle)) }
    }

    /// Sets every parameter back to `NULL` (`sqlite3_clear_bindings`).
    public func clearBindings() {
        database.withHandle { _ in _ = database.sqlite.clear_bindings(handle) }
    }

    // MARK: - Running

    /// Runs the statement to its next row (`sqlite3_step`): true when a row is ready to read, false when done.
    public func step() throws(StoreError) -> Bool {
        try database.withHandle { _ throws(StoreError) in
            let status = database.sqlite.step(handle)
            switch status {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default: throw database.error(status, sql: sql)
            }
        }
    }

    /// Rewinds the statement so it can run again (`sqlite3_reset`); bindings are kept.
    ///
    /// The result is ignored because it repeats the error `step` already threw.
    public func reset() {
        database.withHandle { _ in _ = database.sqlite.reset(handle) }
    }

    // MARK: - Reading the current row (columns from 0)

    /// How many columns a row has.
    public var columnCount: Int {
        database.withHandle { _ in Int(database.sqlite.column_count(handle)) }
    }

    /// The name of column `index`, as `AS` gave it or SQLite made it up.
    public func columnName(at index: Int) -> String {
        database.withHandle { _ in
            database.sqlite.column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
        }
    }

    /// Whether column `index` of the current row is `NULL`.
    public func isNull(at index: Int) -> Bool {
        database.withHandle { _ in database.sqlite.column_type(handle, Int32(index)) == SQLITE_NULL }
    }

    /// Column `index` as an integer; `NULL` reads as 0, as in SQLite.
    public func int64(at index: Int) -> Int64 {
        database.withHandle { _ in database.sqlite.column_int64(handle, Int32(index)) }
    }

    /// Column `index` as an `Int`; `NULL` reads as 0.
    public func int(at index: Int) -> Int {
        Int(truncatingIfNeeded: int64(at: index))
    }

    /// Column `index` as a boolean: anything but 0 (and `NULL`) is true, as in SQLite.
    public func bool(at index: Int) -> Bool {
        int64(at: index) != 0
    }

    /// Column `index` as a floating-point number; `NULL` reads as 0.
    public func double(at index: Int) -> Double {
        database.withHandle { _ in database.sqlite.column_double(handle, Int32(index)) }
    }

    /// Column `index` as text, nil for `NULL`; bytes that are not UTF-8 become U+FFFD, so no bar ever sees them.
    public func string(at index: Int) -> String? {
        database.withHandle { _ in
            // column_text before column_bytes: SQLite's documented order, so the count is of the converted text.
            guard database.sqlite.column_type(handle, Int32(index)) != SQLITE_NULL,
                let text = database.sqlite.column_text(handle, Int32(index))
            else { return nil }
            let count = Int(database.sqlite.column_bytes(handle, Int32(index)))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        }
    }

    /// Column `index` as bytes, nil for `NULL`.
    public func data(at index: Int) -> Data? {
        database.withHandle { _ in
            guard database.sqlite.column_type(handle, Int32(index)) != SQLITE_NULL else { return nil }
            // A zero-length blob comes back as a null pointer, which is still an empty value, not NULL.
            guard let bytes = database.sqlite.column_blob(handle, Int32(index)) else { return Data() }
            return Data(bytes: bytes, count: Int(database.sqlite.column_bytes(handle, Int32(index))))
        }
    }
}
