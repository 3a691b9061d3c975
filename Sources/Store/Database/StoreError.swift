import FoundationEssentials
import Glibc

/// Why a store operation failed, worded for the person at the terminal.
///
/// One error type for the whole module, so every store call can use typed `throws(StoreError)` and a caller can
/// switch over the cases: SQLite's own failures (with code, message and the statement), lookups that found
/// nothing or too much, input the store refuses, and files it will not open.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite refused: its primary result code (`SQLITE_CONSTRAINT` is 19), the extended code that says more
    /// (`SQLITE_CONSTRAINT_UNIQUE` is 2067), `sqlite3_errmsg`, and the statement that was running, if any.
    case sqlite(code: Int32, extendedCode: Int32, message: String, sql: String?)
    /// No record has this id, unique id prefix (or, for to-dos, title).
    case notFound(String)
    /// The id prefix starts more than one id; the candidates say which, so the user can type more characters.
    case ambiguous(String, [Candidate])
    /// An id prefix shorter than `RecordID.minimumPrefixLength`, refused because it would match too much by chance.
    case referenceTooShort(String)
    /// A colour that is not `#RGB`, `#RRGGBB` or `#RRGGBBAA`.
    case invalidColor(String)
    /// A to-do title that is empty once surrounding white space is removed.
    case emptyTitle
    /// The file's `PRAGMA user_version` is one this build does not know, most likely written by a newer widgetd.
    case unsupportedSchemaVersion(path: String, found: Int, newestKnown: Int)
    /// `PRAGMA journal_mode=WAL` answered something else (a file system without shared memory, for one).
    case walUnavailable(path: String, journalMode: String)
    /// The store's parent directory could not be created (`mkdir`).
    case cannotCreateDirectory(path: String, errno: Int32)
    /// libsqlite3 could not be loaded (`dlopen`), or lacks a function the store calls: the loader's reason.
    case sqliteUnavailable(library: String, reason: String)

    /// One record an ambiguous reference could mean.
    public struct Candidate: Sendable, Equatable, CustomStringConvertible {
        /// The record's full id.
        public var id: String
        /// What the user knows the record by: a motivation's message, a to-do's title.
        public var label: String

        /// A candidate with its full id and the label a person knows it by.
        public init(id: String, label: String) {
            self.id = id
            self.label = label
        }

        public var description: String { "\(id) \(label)" }
    }

    /// SQLite's primary result code, for the `sqlite` case.
    public var sqliteCode: Int32? {
        if case .sqlite(let code, _, _, _) = self { return code }
        return nil
    }

    /// Whether another connection held a lock SQLite needed (`SQLITE_BUSY`, `SQLITE_LOCKED` and their extended
    /// codes such as `SQLITE_BUSY_SNAPSHOT`): the whole transaction may succeed if it is run again.
    public var isBusy: Bool {
        guard let code = sqliteCode else { return false }
        return code == 5 || code == 6
    }

    public var description: String {
        switch self {
        case .sqlite(let code, _, let message, let sql):
            guard let sql else { return "SQLite error \(code): \(message)" }
            return "SQLite error \(code): \(message) — while executing `\(Self.oneLine(sql))`"
        case .notFound(let reference):
            return "nothing matches '\(reference)'"
        case .ambiguous(let reference, let candidates):
            let listed = candidates.map { "  \($0)" }.joined(separator: "\n")
            return
                "'\(reference)' is ambiguous: \(candidates.count) ids start with it; type more of the one you mean:\n"
                + listed
        case .referenceTooShort(let reference):
            return "'\(reference)' is too short: give the whole id or at least \(RecordID.minimumPrefixLength) "
                + "characters of it"
        case .invalidColor(let text):
            return "'\(text)' is not a colour: use #RGB, #RRGGBB or #RRGGBBAA in hexadecimal, such as #D3D3D3"
        case .emptyTitle:
            return "a to-do needs a title"
        case .unsupportedSchemaVersion(let path, let found, let newestKnown):
            return "\(path) has store schema version \(found), but this widgetd knows versions up to \(newestKnown); "
                + "it was probably written by a newer widgetd. Upgrade widgetd, or point it at another store."
        case .walUnavailable(let path, let journalMode):
            return "\(path): SQLite would not switch to write-ahead logging (journal_mode answered '\(journalMode)'); "
                + "the store needs a local file system that supports shared memory"
        case .cannotCreateDirectory(let path, let errno):
            return "cannot create directory \(path): \(String(cString: strerror(errno)))"
        case .sqliteUnavailable(let library, let reason):
            return "cannot load SQLite (\(library)), which the store needs: \(reason); "
                + "install it (Debian: the libsqlite3-0 package)"
        }
    }

    /// The statement on one line: SQL written across lines in the source reads badly inside a one-line error.
    private static func oneLine(_ sql: String) -> String {
        sql.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
