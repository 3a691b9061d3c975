import Basics
import FoundationEssentials

/// The to-dos in a `SharedStore`: the seed's to-do list, which the `todos` widget shows the top of.
///
/// Items are named by exact title (any case, as the seed's toggle intent names them by title) or by id or unique
/// id prefix. Every write is one `BEGIN IMMEDIATE` transaction, so two processes toggling at once never lose one.
public struct TodoStore: Sendable {
    /// The connection the store reads and writes through.
    public let database: Database

    /// A view of the to-dos in `database`, which must be migrated (`SharedStore` does that).
    public init(database: Database) {
        self.database = database
    }

    /// The order they were added, done or not (the seed's list, where a done item keeps its place); a tie in time by
    /// insertion.
    ///
    /// Written as the `todos_by_creation` index (which holds the rowid too), so SQLite reads the index in order
    /// instead of sorting.
    static let displayOrder = "ORDER BY created, rowid"

    /// Which of several to-dos with one title a title names: the oldest open one, or when all are done, the most
    /// recently done one, so that toggling a title twice undoes and a title names what the user most likely means.
    static let titleChoiceOrder =
        "ORDER BY completed, (CASE WHEN completed THEN -completed_at ELSE created END), rowid"

    /// Every to-do in display order.
    public func all() throws(StoreError) -> [Todo] {
        try database.fetch("SELECT \(Todo.columns) FROM todos \(Self.displayOrder)", [], map: Todo.init)
    }

    /// The first `count` to-dos in display order, as the widget shows them.
    public func top(_ count: Int = 3) throws(StoreError) -> [Todo] {
        try database.fetch(
            "SELECT \(Todo.columns) FROM todos \(Self.displayOrder) LIMIT ?", [max(count, 0)], map: Todo.init)
    }

    /// Adds an open to-do; surrounding white space is dropped from the title, which must not end up empty.
    @discardableResult
    public func add(title: String, created: Date = Date()) throws(StoreError) -> Todo {
        let title = title.trimmingWhitespace()
        guard !title.isEmpty else { throw .emptyTitle }
        return try database.writeTransaction { () throws(StoreError) in
            let id = RecordID.make()
            try database.run(
                "INSERT INTO todos(id, title, created) VALUES (?, ?, ?)", [id, title, created.timeIntervalSince1970])
            return try fetch(id: id)
        }
    }

    /// Marks the to-do `titleOrID` names done, or open again if it was done, and returns it as stored.
    ///
    /// Of several items with that title, the one `titleChoiceOrder` puts first is toggled: the oldest open one, or
    /// when all are done, the most recently done one (so toggling twice undoes).
    @discardableResult
    public func toggle(titleOrID: String, at now: Date = Date()) throws(StoreError) -> Todo {
        try database.writeTransaction { () throws(StoreError) in
            let target = try find(titleOrID).id
            // Both columns change in one statement from the row's current values, so no toggle is lost to a race.
            try database.run(
                """
                UPDATE todos SET completed = 1 - completed, completed_at = CASE WHEN completed THEN NULL ELSE ? END
                WHERE id = ?
                """, [now.timeIntervalSince1970, target])
            return try fetch(id: target)
        }
    }

    /// Deletes the to-do `titleOrID` names (chosen as `toggle` chooses) and returns it.
    @discardableResult
    public func remove(titleOrID: String) throws(StoreError) -> Todo {
        try database.writeTransaction { () throws(StoreError) in
            let todo = try find(titleOrID)
            try database.run("DELETE FROM todos WHERE id = ?", [todo.id])
            return todo
        }
    }

    /// The to-do `titleOrID` names: an exact title in any case first, then a whole id or unique id prefix.
    ///
    /// - Throws: `.notFound`, `.ambiguous` with the candidates, or `.referenceTooShort` for a short id prefix that
    ///   is no title either.
    public func resolve(titleOrID: String) throws(StoreError) -> Todo {
        try database.readTransaction { () throws(StoreError) in try find(titleOrID) }
    }

    // MARK: - Helpers; call inside a transaction

    /// Titles win over ids: the seed names items by title, and a title that happens to look like hex should still
    /// mean the item the user sees.
    private func find(_ titleOrID: String) throws(StoreError) -> Todo {
        let text = titleOrID.trimmingWhitespace()
        guard !text.isEmpty else { throw .notFound(titleOrID) }
        let byTitle = try database.fetch(
            """
            SELECT \(Todo.columns) FROM todos WHERE \(TextFolding.caseFunction)(title) = ? \(Self.titleChoiceOrder) LIMIT 1
            """, [TextFolding.caseKey(text)], map: Todo.init)
        if let todo = byTitle.first { return todo }
        let id = try RecordID.resolve(text, in: "todos", label: "title", database: database)
        return try fetch(id: id)
    }

    private func fetch(id: String) throws(StoreError) -> Todo {
        let found = try database.fetch("SELECT \(Todo.columns) FROM todos WHERE id = ?", [id], map: Todo.init)
        guard let todo = found.first else { throw .notFound(id) }
        return todo
    }
}
