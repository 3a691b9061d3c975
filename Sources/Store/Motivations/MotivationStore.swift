import FoundationEssentials

/// The motivations in a `SharedStore`: the seed's app-side list, add, delete, favourite and colour.
///
/// Every write is one `BEGIN IMMEDIATE` transaction, so a read-modify-write cannot interleave with another process's:
/// two processes toggling the same favourite at once end where two toggles in a row would.
public struct MotivationStore: Sendable {
    /// The connection the store reads and writes through.
    public let database: Database

    /// A view of the motivations in `database`, which must be migrated (`SharedStore` does that).
    public init(database: Database) {
        self.database = database
    }

    /// The rule every list uses: newest first, and for equal timestamps the later insert first.
    static let newestFirst = "ORDER BY timestamp DESC, rowid DESC"

    /// Every motivation, newest first, including those without a message.
    public func all() throws(StoreError) -> [Motivation] {
        try database.fetch(
            "SELECT \(Motivation.columns) FROM motivations \(Self.newestFirst)", [], map: Motivation.init)
    }

    /// Stores a new motivation and returns it as stored.
    @discardableResult
    public func add(message: String?, timestamp: Date = Date()) throws(StoreError) -> Motivation {
        try database.writeTransaction { () throws(StoreError) in try insert(message: message, timestamp: timestamp) }
    }

    /// Adds one of the seed's samples that no stored motivation has as its message yet, picked at random as the
    /// seed's `addItem` does; nil when all twenty are stored.
    @discardableResult
    public func addSample(timestamp: Date = Date()) throws(StoreError) -> Motivation? {
        var generator = SystemRandomNumberGenerator()
        return try addSample(using: &generator, timestamp: timestamp)
    }

    /// `addSample()` with the choice made by `generator`, so a test can make it repeatable.
    @discardableResult
    public func addSample<G: RandomNumberGenerator>(
        using generator: inout G, timestamp: Date = Date()
    ) throws(StoreError) -> Motivation? {
        // One transaction for the read and the insert, so two processes adding at once cannot pick the same sample.
        try database.writeTransaction { () throws(StoreError) in
            let stored = Set(
                try database.fetch("SELECT message FROM motivations WHERE message IS NOT NULL", []) {
                    $0.string(at: 0) ?? ""
                })
            let available = Motivation.samples.filter { !stored.contains($0) }
            guard let message = available.randomElement(using: &generator) else { return nil }
            return try insert(message: message, timestamp: timestamp)
        }
    }

    /// Deletes the motivations `ids` name (whole ids or unique prefixes) and returns them, in the order given.
    ///
    /// All or nothing: when one reference does not resolve, nothing is deleted and its error is thrown.
    @discardableResult
    public func remove(ids: [String]) throws(StoreError) -> [Motivation] {
        try database.writeTransaction { () throws(StoreError) in
            // Every reference is resolved before anything is deleted, so a repeated one still resolves.
            var removed: [Motivation] = []
            for reference in ids {
                let motivation = try find(reference)
                if !removed.contains(where: { $0.id == motivation.id }) { removed.append(motivation) }
            }
            for motivation in removed {
                try database.run("DELETE FROM motivations WHERE id = ?", [motivation.id])
            }
            return removed
        }
    }

    /// Flips the favourite flag of the motivation `id` names (whole id or unique prefix) and returns the result.
    @discardableResult
    public func toggleFavorite(id: String) throws(StoreError) -> Motivation {
        try database.writeTransaction { () throws(StoreError) in
            let target = try find(id).id
            // The flip happens in SQL on the current value, not on one read earlier, so no toggle is ever lost.
            try database.run("UPDATE motivations SET is_favorite = 1 - is_favorite WHERE id = ?", [target])
            return try fetch(id: target)
        }
    }

    /// Sets the background colour of the motivation `id` names; `hex` must be `#RGB`, `#RRGGBB` or `#RRGGBBAA`.
    @discardableResult
    public func setColor(id: String, hex: String) throws(StoreError) -> Motivation {
        guard ColorHex.isValid(hex) else { throw .invalidColor(hex) }
        return try database.writeTransaction { () throws(StoreError) in
            let target = try find(id).id
            try database.run("UPDATE motivations SET background_color_hex = ? WHERE id = ?", [hex, target])
            return try fetch(id: target)
        }
    }

    /// The motivation `reference` names: its whole id, or a prefix of at least four characters no other id shares.
    ///
    /// - Throws: `.notFound`, `.ambiguous` with the candidates, or `.referenceTooShort`.
    public func resolve(reference: String) throws(StoreError) -> Motivation {
        // Two statements, one snapshot: a deferred transaction, so a delete in between cannot split them.
        try database.readTransaction { () throws(StoreError) in try find(reference) }
    }

    // MARK: - Helpers; call inside a transaction

    private func find(_ reference: String) throws(StoreError) -> Motivation {
        let id = try RecordID.resolve(reference, in: "motivations", label: "coalesce(message, '')", database: database)
        return try fetch(id: id)
    }

    private func insert(message: String?, timestamp: Date) throws(StoreError) -> Motivation {
        let id = RecordID.make()
        try database.run(
            "INSERT INTO motivations(id, message, timestamp) VALUES (?, ?, ?)",
            [id, message, timestamp.timeIntervalSince1970])
        // Read back rather than build the value here, so the caller gets the defaults and the timestamp as stored.
        return try fetch(id: id)
    }

    private func fetch(id: String) throws(StoreError) -> Motivation {
        let found = try database.fetch(
            "SELECT \(Motivation.columns) FROM motivations WHERE id = ?", [id], map: Motivation.init)
        guard let motivation = found.first else { throw .notFound(id) }
        return motivation
    }
}
