import Foundation
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
    public func open() throws(StoreError) -> SharedStore {
        if let store = store.withLock({ $0 }) { return store }
        let opened = try SharedStore(path: path)
        return store.withLock { current in
            if let current { return current }
            current = opened
            return opened
        }
    }
}
