import FoundationEssentials
import Store
import Synchronization

/// The shared store, opened on first use: `widgetd check` and `kinds` never create a database file, and
/// the daemon and every CLI process share one file (the App Group container of the seeds).
public final class StoreAccess: Sendable {
    public let path: String
    private let store = Mutex<SharedStore?>(nil)

    public init(path: String) {
        self.path = path
    }

    /// The open store (opened and migrated now if it was not yet).
    ///
    /// Opened under the lock: provider threads that start together would otherwise each open (and
    /// migrate) a connection, and SQLite keeps a dropped connection's descriptor while another holds a
    /// lock on the file.
    public func open() throws(StoreError) -> SharedStore {
        try store.withLock { (current: inout SharedStore?) throws(StoreError) -> SharedStore in
            if let current { return current }
            let opened = try SharedStore(path: path)
            current = opened
            return opened
        }
    }
}
