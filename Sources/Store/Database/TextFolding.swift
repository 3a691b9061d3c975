internal import CSQLite
import Foundation

/// Keys for comparing text the way a person types it: without regard to case, and for searches to accents.
///
/// SQLite's `LIKE`, `lower()` and `NOCASE` fold ASCII only, so "CAFÉ" would not find "café". The folding is done by
/// Foundation instead and registered on every connection as two SQL functions, so the stores can filter in SQL:
/// `widgetd_fold(text)` for searches and `widgetd_casefold(text)` for exact title matches. Neither appears in the
/// schema, so the file stays readable by the plain `sqlite3` shell.
enum TextFolding {
    /// The SQL name of `searchKey`.
    static let searchFunction = "widgetd_fold"
    /// The SQL name of `caseKey`.
    static let caseFunction = "widgetd_casefold"

    /// Case- and accent-free text for substring search: "Café TIME" and "cafe time" give the same key.
    ///
    /// Typographic apostrophes become `'` as well: the samples say "Don’t stop now." and nobody types ’.
    static func searchKey(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        return String(String.UnicodeScalarView(folded.unicodeScalars.map { Self.apostrophes.contains($0) ? "'" : $0 }))
    }

    /// Case-free text for "the same title, typed in another case"; accents still count.
    static func caseKey(_ text: String) -> String {
        text.folding(options: [.caseInsensitive], locale: nil)
    }

    private static let apostrophes: Set<Unicode.Scalar> = ["\u{2018}", "\u{2019}", "\u{02BC}"]

    /// Registers both functions on a connection (`sqlite3_create_function_v2`).
    ///
    /// Marked deterministic, so SQLite may reuse a result for an argument it has already folded within a statement.
    /// The results go unchecked: registration fails only for lack of memory, and then the first search reports
    /// "no such function: widgetd_fold" with its SQL anyway.
    static func register(on connection: OpaquePointer) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        sqlite3_create_function_v2(
            connection, searchFunction, 1, flags, nil,
            { context, _, arguments in TextFolding.apply(TextFolding.searchKey, context, arguments) }, nil, nil, nil)
        sqlite3_create_function_v2(
            connection, caseFunction, 1, flags, nil,
            { context, _, arguments in TextFolding.apply(TextFolding.caseKey, context, arguments) }, nil, nil, nil)
    }

    /// The body of both SQL functions: `NULL` stays `NULL`, anything else is read as text and folded.
    private static func apply(
        _ key: (String) -> String, _ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
    ) {
        guard let value = arguments?[0], sqlite3_value_type(value) != SQLITE_NULL,
            let bytes = sqlite3_value_text(value)
        else {
            sqlite3_result_null(context)
            return
        }
        let text = String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
        let folded = key(text)
        sqlite3_result_text(context, folded, Int32(clamping: folded.utf8.count), SQLITE_TRANSIENT)
    }
}
