import FoundationEssentials
import Store
import Synchronization

/// The shared store, opened on first use: `widgetd check` and `kinds` never create a database file, and
/// the daemon and every CLI process share one file (the App Group container of the seeds).
///
/// The connection lives as long as its users hold it, not as long as the daemon: once the last provider call or
/// intent that read the store lets go, it closes, and with it libsqlite3 is unloaded (issue 15: 1.3 MB of idle RSS
/// with the example's store widgets). The next read opens it again; a store widget reads when it reloads (never on a
/// timer: motivations keep their entry, todos reload at most every few minutes), so that costs one open per reload.
public final class StoreAccess: Sendable {
    public let path: String
    private let store = Mutex<WeakStore>(WeakStore())

    /// The open store, held weakly so that it closes when no user holds it.
    private struct WeakStore: Sendable {
        weak var store: SharedStore?
    }

    public init(path: String) {
        self.path = path
    }

    /// The open store (opened and migrated now if no one holds it open); it closes when the last holder lets go.
    ///
    /// Opened under the lock: provider threads that start together would otherwise each open (and
    /// migrate) a connection, and SQLite keeps a dropped connection's descriptor while another holds a
    /// lock on the file.
    public func open() throws(StoreError) -> SharedStore {
        try store.withLock { (current: inout WeakStore) throws(StoreError) -> SharedStore in
            if let open = current.store { return open }
            let opened = try SharedStore(path: path)
            current.store = opened
            return opened
        }
    }
}
