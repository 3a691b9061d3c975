internal import CSQLite
import FoundationEssentials

/// Keys for comparing text the way a person types it: without regard to case, and for searches to accents.
///
/// SQLite's `LIKE`, `lower()` and `NOCASE` fold ASCII only, so "CAFÉ" would not find "café". The folding is done here
/// instead, from Unicode tables generated once (`scripts/generate-text-folding.py`, `TextFolding+Table.swift`) since
/// Foundation's `String.folding` needs ICU, which the daemon does not link, and registered on every connection as two
/// SQL functions, so the stores can filter in SQL: `widgetd_fold(text)` for searches and `widgetd_casefold(text)` for
/// exact title matches. Neither appears in the schema, so the file stays readable by the plain `sqlite3` shell.
enum TextFolding {
    /// The SQL name of `searchKey`.
    static let searchFunction = "widgetd_fold"
    /// The SQL name of `caseKey`.
    static let caseFunction = "widgetd_casefold"

    /// Case- and accent-free text for substring search: "Café TIME" and "cafe time" give the same key.
    ///
    /// Typographic apostrophes become `'` as well: the samples say "Don’t stop now." and nobody types ’.
    static func searchKey(_ text: String) -> String {
        fold(text) { scalar in
            if Self.apostrophes.contains(scalar) { return ["'"] }
            return Tables.search[scalar.value] ?? Tables.caseFold[scalar.value]
        }
    }

    /// Case-free text for "the same title, typed in another case" (Unicode full case folding: "ß" is "ss"); accents
    /// still count.
    static func caseKey(_ text: String) -> String {
        fold(text) { Tables.caseFold[$0.value] }
    }

    /// `text` with each scalar `replacement` maps replaced (nil: kept); ASCII other than A–Z is kept without a lookup.
    private static func fold(_ text: String, _ replacement: (Unicode.Scalar) -> [Unicode.Scalar]?) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 && !(0x41...0x5A).contains(scalar.value) {
                scalars.append(scalar)
            } else if let replaced = replacement(scalar) {
                scalars.append(contentsOf: replaced)
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// The generated tables, read once on first use.
    private enum Tables {
        static let caseFold = parse(TextFolding.caseFolding)
        static let search = parse(TextFolding.searchFolding)

        /// `HEX:HEX,HEX;…` into scalar value → replacement scalars.
        static func parse(_ table: String) -> [UInt32: [Unicode.Scalar]] {
            var map: [UInt32: [Unicode.Scalar]] = [:]
            for entry in table.utf8.split(separator: UInt8(ascii: ";")) {
                let parts = entry.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
                guard parts.count == 2, let key = UInt32(Substring(parts[0]), radix: 16) else { continue }
                map[key] = parts[1].split(separator: UInt8(ascii: ",")).compactMap {
                    UInt32(Substring($0), radix: 16).flatMap(Unicode.Scalar.init)
                }
            }
            return map
        }
    }

    private static let apostrophes: Set<Unicode.Scalar> = ["\u{2018}", "\u{2019}", "\u{02BC}"]

    /// Registers both functions on a connection (`sqlite3_create_function_v2`).
    ///
    /// Marked deterministic, so SQLite may reuse a result for an argument it has already folded within a statement.
    /// The results go unchecked: registration fails only for lack of memory, and then the first search reports
    /// "no such function: widgetd_fold" with its SQL anyway.
    static func register(on connection: OpaquePointer, with sqlite: widgetd_sqlite3) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        _ = sqlite.create_function_v2(
            connection, searchFunction, 1, flags, nil,
            { context, _, arguments in TextFolding.apply(TextFolding.searchKey, context, arguments) }, nil, nil, nil)
        _ = sqlite.create_function_v2(
            connection, caseFunction, 1, flags, nil,
            { context, _, arguments in TextFolding.apply(TextFolding.caseKey, context, arguments) }, nil, nil, nil)
    }

    /// The body of both SQL functions: `NULL` stays `NULL`, anything else is read as text and folded.
    private static func apply(
        _ key: (String) -> String, _ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
    ) {
        // Always there: SQLite calls this only inside a call on a connection, which keeps the library loaded.
        guard let sqlite = SQLiteLibrary.functionsInCallback else { return }
        guard let value = arguments?[0], sqlite.value_type(value) != SQLITE_NULL,
            let bytes = sqlite.value_text(value)
        else {
            sqlite.result_null(context)
            return
        }
        let text = String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite.value_bytes(value))), as: UTF8.self)
        let folded = key(text)
        sqlite.result_text(context, folded, Int32(clamping: folded.utf8.count), SQLITE_TRANSIENT)
    }
}
