import Basics
internal import CSQLite
import Glibc
import Synchronization

/// libsqlite3, loaded with `dlopen` when the first connection opens and unloaded when the last one closes.
///
/// Mapped, libsqlite3 stays resident in a daemon that never reads the store, and more of it once a store widget has
/// read it. Loading on demand leaves a daemon without store widgets without it, and unloading after the read gives it
/// back; a store widget's next read loads it again (docs/PERFORMANCE.md, "Idle RSS"). Nothing links libsqlite3 (CSQLite
/// gives only the declarations), so the loader does not map it at start; the Debian package names libsqlite3-0 itself
/// (scripts/package-deb).
///
/// Every `Database` holds a `SQLiteLease`; the last lease to go shuts SQLite down (`sqlite3_shutdown`, which frees
/// what `sqlite3_initialize` allocated) and closes the library, so nothing of it is left mapped.
enum SQLiteLibrary {
    /// The library's file name: its soname, which the dynamic loader finds as it would for a linked library.
    static let fileName = "libsqlite3.so.0"

    /// The loaded library and how many leases use it; nil and 0 when unloaded.
    private static let loaded = Mutex<(handle: UnsafeMutableRawPointer?, functions: widgetd_sqlite3?, leases: Int)>(
        (nil, nil, 0))

    /// Loads the library if no lease holds it yet and hands out a lease on it.
    ///
    /// - Throws: `StoreError.sqliteUnavailable` (see `open(fileName:)`).
    static func lease() throws(StoreError) -> SQLiteLease {
        try loaded.withLock { (state) throws(StoreError) -> SQLiteLease in
            if let functions = state.functions {
                state.leases += 1
                return SQLiteLease(functions: functions)
            }
            let (handle, functions) = try open(fileName: fileName)
            state = (handle, functions, 1)
            return SQLiteLease(functions: functions)
        }
    }

    /// Loads `fileName` (`dlopen`) and finds every function the store calls in it; the caller closes the handle.
    ///
    /// - Throws: `StoreError.sqliteUnavailable` naming the library and the loader's reason, or the first function it
    ///   lacks (then it is closed again).
    static func open(fileName: String) throws(StoreError) -> (
        handle: UnsafeMutableRawPointer, functions: widgetd_sqlite3
    ) {
        do {
            return try SharedLibrary.open(fileName) { widgetd_sqlite3_resolve($0, $1) }
        } catch {
            throw .sqliteUnavailable(library: error.library, reason: error.reason)
        }
    }

    /// Gives a lease back; the last one shuts SQLite down and unloads it.
    fileprivate static func giveBack() {
        loaded.withLock { state in
            state.leases -= 1
            guard state.leases == 0, let handle = state.handle, let functions = state.functions else { return }
            _ = functions.shutdown()
            dlclose(handle)
            state = (nil, nil, 0)
            // What SQLite freed (its page cache, the schema) would otherwise stay resident in the arena of the thread
            // that read the store.
            FreedMemory.giveBack()
        }
    }

    /// The loaded library's functions, for SQLite's callbacks into ours (`TextFolding`): they run only inside a call
    /// on a connection, which holds a lease, so the library is loaded.
    static var functionsInCallback: widgetd_sqlite3? {
        loaded.withLock { $0.functions }
    }
}

/// One user's hold on the loaded libsqlite3, with its functions; the library stays loaded while any lease lives.
///
/// `@unchecked`: its one property is an immutable table of C function pointers, which Swift does not see as Sendable.
final class SQLiteLease: @unchecked Sendable {
    /// SQLite's functions (`sqlite3_step` is `functions.step`).
    let functions: widgetd_sqlite3

    fileprivate init(functions: widgetd_sqlite3) {
        self.functions = functions
    }

    deinit {
        SQLiteLibrary.giveBack()
    }
}
