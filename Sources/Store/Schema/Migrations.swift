import FoundationEssentials

/// The store's schema history, one step per value of `PRAGMA user_version`.
///
/// Steps are never edited once released: a file at version N has exactly the tables steps 1 through N made, and
/// reaching version N+1 runs step N+1 alone. Times are stored as seconds since 1970 (`REAL`), so the `sqlite3` shell
/// can show them with `datetime(timestamp, 'unixepoch')`.
public enum Migrations {
    /// One step: the SQL that takes a file from `version - 1` to `version`.
    struct Step: Sendable {
        let version: Int
        let sql: String
    }

    static let steps: [Step] = [
        // The seed's first SwiftData model: Motivation(id, message, timestamp).
        Step(
            version: 1,
            sql: """
                CREATE TABLE motivations(id TEXT PRIMARY KEY, message TEXT, timestamp REAL NOT NULL);
                """),
        // The seed's model change (isFavorite, backgroundColorHex), the to-do model, and indexes for the orders
        // the stores list in. The to-do index is on the very expression TodoStore orders by, so SQLite walks it
        // instead of sorting.
        Step(
            version: 2,
            sql: """
                ALTER TABLE motivations ADD COLUMN is_favorite INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE motivations ADD COLUMN background_color_hex TEXT NOT NULL DEFAULT '#D3D3D3';
                CREATE INDEX motivations_by_timestamp ON motivations(timestamp);
                CREATE TABLE todos(
                    id TEXT PRIMARY KEY,
                    title TEXT NOT NULL,
                    completed INTEGER NOT NULL DEFAULT 0,
                    created REAL NOT NULL,
                    completed_at REAL
                );
                CREATE INDEX todos_by_display_order
                    ON todos(completed, (CASE WHEN completed THEN -completed_at ELSE created END));
                """),
        // To-dos in the order they were added, done or not, as the seed's widget keeps them: a done item stays in
        // its place, so a second click on it opens it again. The index TodoStore's order walks.
        Step(
            version: 3,
            sql: """
                DROP INDEX todos_by_display_order;
                CREATE INDEX todos_by_creation ON todos(created);
                """),
    ]

    /// The version a file has after `migrate`.
    public static var latestVersion: Int { steps.last?.version ?? 0 }

    /// Brings the database up to `latestVersion`, each step in its own transaction.
    ///
    /// Each step re-reads the version after `BEGIN IMMEDIATE`: two processes opening a fresh file at once both see
    /// version 0, but only the first to get the write lock applies a step and the other finds it done.
    ///
    /// - Returns: the versions before and after.
    /// - Throws: `StoreError.unsupportedSchemaVersion` for a file from a newer widgetd (or not from widgetd at all),
    ///   which is left untouched.
    @discardableResult
    public static func migrate(_ database: Database) throws(StoreError) -> (from: Int, to: Int) {
        let start = try checkedVersion(of: database)
        for step in steps where step.version > start {
            try database.writeTransaction { () throws(StoreError) in
                guard try checkedVersion(of: database) == step.version - 1 else { return }
                try database.execute(step.sql)
                try database.setUserVersion(step.version)
            }
        }
        return (start, try checkedVersion(of: database))
    }

    /// The file's version, refused unless this build knows it.
    private static func checkedVersion(of database: Database) throws(StoreError) -> Int {
        let version = try database.userVersion
        guard (0...latestVersion).contains(version) else {
            throw .unsupportedSchemaVersion(path: database.path, found: version, newestKnown: latestVersion)
        }
        return version
    }
}
