import FoundationEssentials
import Store
import Synchronization

/// The shared store, opened on first use: `widgetd check` and `kinds` never create a database file, and
/// the daemon and every CLI process share one file (the App Group container of the seeds).
///
/// The connection lives as long as its users hold it, not as long as the daemon: once the last provider call or
/// intent that read the store lets go, it closes, and with it libsqlite3 is unloaded, so an idle
/// daemon holds none of it (docs/PERFORMANCE.md, "Idle RSS"). The next read opens it again, which costs CPU (loading
/// the library, opening and checking the file). So that a burst of reads pays it once, whoever knows more reads are
/// coming takes a `hold()`: while any hold is out, the store stays open from its first open until the last hold is
/// released (the daemon holds it while calls wait for or run on its store thread).
public final class StoreAccess: Sendable {
    public let path: String
    private let store = Mutex<OpenStore>(OpenStore())
    /// How many `StoreHold`s are out: an atomic, not part of `store`, whose lock an open keeps for as long as it takes
    /// (another process's lock on the file, a migration), so that taking a hold never waits.
    private let holds = Atomic<Int>(0)

    /// The open store: held weakly so that it closes when no user holds it, and strongly while a hold is out.
    private struct OpenStore: Sendable {
        weak var store: SharedStore?
        var held: SharedStore?
    }

    public init(path: String) {
        self.path = path
    }

    /// The open store (opened and migrated now if no one holds it open); it closes when the last holder lets go, or
    /// once the last `StoreHold` is released, whichever is later.
    ///
    /// Opened under the lock: provider threads that start together would otherwise each open (and
    /// migrate) a connection, and SQLite keeps a dropped connection's descriptor while another holds a
    /// lock on the file.
    public func open() throws(StoreError) -> SharedStore {
        try store.withLock { (current: inout OpenStore) throws(StoreError) -> SharedStore in
            let open: SharedStore
            if let existing = current.store {
                open = existing
            } else {
                open = try SharedStore(path: path)
                current.store = open
            }
            if holds.load(ordering: .sequentiallyConsistent) > 0 { current.held = open }
            return open
        }
    }

    /// Keeps the store open between reads until the hold is released (dropped): the reads in between open it once.
    ///
    /// Taking a hold opens nothing and never waits, so the daemon's loop can take one; the store is kept from the
    /// next `open()` on. The last hold to go closes the store on the thread that drops it, unless a reader still
    /// holds it open (then it closes when that reader lets go).
    public func hold() -> StoreHold {
        holds.add(1, ordering: .sequentiallyConsistent)
        return StoreHold(access: self)
    }

    /// A hold was released: the last one lets go of the store it kept.
    fileprivate func release() {
        guard holds.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 else { return }
        let kept = store.withLock { (current: inout OpenStore) -> SharedStore? in
            // A hold taken meanwhile keeps it.
            guard holds.load(ordering: .sequentiallyConsistent) == 0 else { return nil }
            defer { current.held = nil }
            return current.held
        }
        // Closed here, outside the lock, if no reader holds it any more.
        withExtendedLifetime(kept) {}
    }
}

/// A hold on the shared store (`StoreAccess.hold()`): while it lives, an opened store stays open.
public final class StoreHold: Sendable {
    private let access: StoreAccess

    fileprivate init(access: StoreAccess) {
        self.access = access
    }

    deinit {
        access.release()
    }
}
