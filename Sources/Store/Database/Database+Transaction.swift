internal import CSQLite

/// How a top-level transaction takes its locks (`BEGIN DEFERRED`, `IMMEDIATE` or `EXCLUSIVE`).
public enum TransactionMode: String, Sendable {
    /// Takes the write lock only at the first write. For reads that want one snapshot across several statements;
    /// a deferred transaction that then writes can fail with `SQLITE_BUSY` without waiting (see `transaction`).
    case deferred = "DEFERRED"
    /// Takes the write lock at `BEGIN`, waiting for it under the busy timeout. What every write should use.
    case immediate = "IMMEDIATE"
    /// As immediate; in WAL mode SQLite treats the two alike.
    case exclusive = "EXCLUSIVE"
}

extension Database {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws, and rethrows.
    ///
    /// The default mode is `BEGIN IMMEDIATE` because SQLite does not call the busy handler when a transaction that
    /// began by reading must upgrade to write (waiting could deadlock two such upgraders): it fails at once with
    /// `SQLITE_BUSY`, or `SQLITE_BUSY_SNAPSHOT` in WAL mode when another connection wrote since the read. Taking the
    /// write lock at `BEGIN` makes a writer wait its turn under the busy timeout instead.
    ///
    /// Should the transaction still fail with `SQLITE_BUSY` or `SQLITE_LOCKED` (the timeout ran out, or a deferred
    /// transaction upgraded), it is rolled back and run again from the start, up to `busyRetryLimit` times with a
    /// growing pause, so "database is locked" does not reach the user under ordinary contention. `body` may
    /// therefore run more than once: keep its effects inside the database.
    ///
    /// A call inside another transaction's body (or inside a `BEGIN` run by hand) becomes a `SAVEPOINT`: its throw rolls back only its own work and
    /// the outer body may catch the error and carry on. The mode of a nested call is ignored; retries belong to the
    /// outermost call.
    public func transaction<T>(_ mode: TransactionMode = .immediate, _ body: () throws -> T) throws -> T {
        try performTransaction(mode, wrap: { $0 as any Error }, body)
    }

    /// `transaction(.immediate)` with typed errors, for the stores' writes.
    func writeTransaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try performTransaction(.immediate, wrap: Database.keep, body)
    }

    /// `transaction(.deferred)` with typed errors, for reads that need one snapshot across statements.
    func readTransaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try performTransaction(.deferred, wrap: Database.keep, body)
    }

    /// The shared core, generic over the error type so the public and typed entry points are one implementation.
    private func performTransaction<T, E: Error>(
        _ mode: TransactionMode, wrap: (StoreError) -> E, _ body: () throws(E) -> T
    ) throws(E) -> T {
        try withHandle { _ throws(E) in
            let depth = enterTransaction()
            defer { leaveTransaction() }
            // A transaction begun by hand with `execute("BEGIN")` counts as an outer one too.
            if depth > 0 || isInTransaction {
                return try inSavepoint(named: "widgetd_savepoint_\(depth)", wrap: wrap, body)
            }
            var attempt = 0
            while true {
                do throws(E) {
                    return try once(mode, wrap: wrap, body)
                } catch {
                    guard (error as? StoreError)?.isBusy == true, attempt < busyRetryLimit, !StoreDeadline.hasPassed
                    else {
                        throw error
                    }
                    attempt += 1
                    busyRetries.add(1, ordering: .relaxed)
                    Self.pause(beforeRetry: attempt)
                }
            }
        }
    }

    /// One attempt at a top-level transaction.
    private func once<T, E: Error>(
        _ mode: TransactionMode, wrap: (StoreError) -> E, _ body: () throws(E) -> T
    ) throws(E) -> T {
        try between(
            // Not through `run`: its own retry would repeat inside this one's, multiplying the waits.
            begin: { () throws(StoreError) in try runOnce("BEGIN \(mode.rawValue)") }, end: "COMMIT",
            undo: rollBackIfActive,
            // A failed COMMIT leaves the transaction open (SQLITE_BUSY) or already rolled back (I/O errors).
            afterFailedEnd: rollBackIfActive, wrap: wrap, body)
    }

    /// Runs `body` between `SAVEPOINT` and `RELEASE`, rolling back to the savepoint if it throws.
    private func inSavepoint<T, E: Error>(
        named name: String, wrap: (StoreError) -> E, _ body: () throws(E) -> T
    ) throws(E) -> T {
        try between(
            begin: { () throws(StoreError) in try run("SAVEPOINT \(name)", []) }, end: "RELEASE \(name)",
            undo: {
                // After some errors (SQLITE_BUSY, SQLITE_FULL) SQLite has already rolled back the whole transaction,
                // and the savepoint with it; then there is nothing to undo here and the outer call sees the error.
                if isInTransaction {
                    try? run("ROLLBACK TO \(name)", [])
                    try? run("RELEASE \(name)", [])
                }
            }, afterFailedEnd: {}, wrap: wrap, body)
    }

    /// Runs `begin`, then `body`, then the statement `end`. When `body` throws, `undo` runs and the error goes on;
    /// when `end` fails, `afterFailedEnd` runs; a failing statement's error is wrapped.
    private func between<T, E: Error>(
        begin: () throws(StoreError) -> Void, end: String, undo: () -> Void, afterFailedEnd: () -> Void,
        wrap: (StoreError) -> E, _ body: () throws(E) -> T
    ) throws(E) -> T {
        do {
            try begin()
        } catch {
            throw wrap(error)
        }
        let result: T
        do {
            result = try body()
        } catch {
            undo()
            throw error
        }
        do {
            try run(end, [])
        } catch {
            afterFailedEnd()
            throw wrap(error)
        }
        return result
    }

    /// Rolls back the open transaction, if SQLite has not already done so itself.
    private func rollBackIfActive() {
        guard isInTransaction else { return }
        // A failing ROLLBACK would hide the error that caused it, and SQLite ends the transaction regardless.
        try? run("ROLLBACK", [])
    }
}
