import FoundationEssentials

/// One to-do item, as the seed's to-do model: a title and whether (and when) it was done.
public struct Todo: Sendable, Hashable, Identifiable {
    /// 32 lowercase hexadecimal digits (see `RecordID`).
    public var id: String
    /// What to do; never empty.
    public var title: String
    /// Whether it is done.
    public var completed: Bool
    /// When it was added; items are listed oldest first, done or not.
    public var created: Date
    /// When it was last marked done; nil while open.
    public var completedAt: Date?

    /// A to-do as given; the store makes them with `TodoStore.add`, this is for callers and tests.
    public init(id: String, title: String, completed: Bool = false, created: Date, completedAt: Date? = nil) {
        self.id = id
        self.title = title
        self.completed = completed
        self.created = created
        self.completedAt = completedAt
    }

    /// The columns `init(row:)` reads, in its order.
    static let columns = "id, title, completed, created, completed_at"

    /// Reads a row selected with `columns`.
    init(row: Row) {
        self.init(
            id: row.string(at: 0) ?? "", title: row.string(at: 1) ?? "", completed: row.bool(at: 2),
            created: Date(timeIntervalSince1970: row.double(at: 3)),
            completedAt: row.optionalDouble(at: 4).map(Date.init(timeIntervalSince1970:)))
    }
}
