import FoundationEssentials

/// A time by which the current task's store calls give up waiting for another connection's lock.
///
/// A store held by another process (a `sqlite3` shell in `BEGIN EXCLUSIVE`) would otherwise keep a call waiting for
/// the busy timeout once per retry, half a minute and more. The daemon sets a deadline around each store-backed
/// provider call and intent (`StoreDeadline.$current.withValue(deadline) { … }`): past it SQLite stops waiting,
/// the transaction is rolled back and `SQLITE_BUSY` is thrown, so a `--wait` learns a final "not done" in time
/// rather than a timeout followed by the change landing later. Unset (the CLI), the busy timeout and retries apply
/// as before.
public enum StoreDeadline {
    @TaskLocal public static var current: Date?

    /// Whether the current deadline has passed.
    static var hasPassed: Bool {
        current.map { Date() >= $0 } ?? false
    }
}
