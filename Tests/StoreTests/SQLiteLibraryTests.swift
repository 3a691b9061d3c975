import Testing

@testable import Store

/// libsqlite3 is loaded with dlopen (`SQLiteLibrary`): a library that is missing or is not SQLite is an error that
/// says so, never a crash. (`open(fileName:)` itself: a lease while another test's connection is open would reuse
/// the library that test loaded.)
@Suite struct SQLiteLibraryTests {
    @Test func aMissingLibraryIsAClearError() {
        #expect {
            _ = try SQLiteLibrary.open(fileName: "libsqlite3-widgetd-missing.so.0")
        } throws: { error in
            guard case .sqliteUnavailable(let library, let reason)? = error as? StoreError else { return false }
            let text = "\(error)"
            return library == "libsqlite3-widgetd-missing.so.0" && reason.contains("libsqlite3-widgetd-missing.so.0")
                && text.hasPrefix("cannot load SQLite (libsqlite3-widgetd-missing.so.0), which the store needs: ")
                && text.hasSuffix("; install it (Debian: the libsqlite3-0 package)")
        }
    }

    @Test func aLibraryWithoutSQLitesFunctionsNamesTheFirstMissing() {
        #expect(throws: StoreError.sqliteUnavailable(library: "libm.so.6", reason: "it has no sqlite3_bind_blob")) {
            _ = try SQLiteLibrary.open(fileName: "libm.so.6")
        }
    }
}
