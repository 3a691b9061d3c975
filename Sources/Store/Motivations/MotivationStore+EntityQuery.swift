import Basics
import FoundationEssentials

/// The seed's `MotivationQuery` (an `EntityStringQuery`), which a widget's `motivation` parameter is resolved with.
///
/// As in the seed, the entity queries see only motivations that have a message: its `fetchMotivations` drops the
/// others, since an entity needs a title to be shown in a picker. `resolve(reference:)` still finds those by id.
extension MotivationStore {
    /// What the configuration picker offers: the seed's `suggestedEntities` returns every motivation, with no
    /// favourites-first ordering; here newest first, the order the app lists them in.
    public func suggested() throws(StoreError) -> [Motivation] {
        try database.fetch(
            "SELECT \(Motivation.columns) FROM motivations WHERE message IS NOT NULL \(Self.newestFirst)", [],
            map: Motivation.init)
    }

    /// The motivation a widget shows when none is configured: the newest, or nil in an empty store.
    public func defaultResult() throws(StoreError) -> Motivation? {
        try database.fetch(
            "SELECT \(Motivation.columns) FROM motivations WHERE message IS NOT NULL \(Self.newestFirst) LIMIT 1", [],
            map: Motivation.init
        ).first
    }

    /// The motivations with these whole ids, in the order asked for; unknown ids are skipped, as in the seed.
    public func entities(for ids: [String]) throws(StoreError) -> [Motivation] {
        let keys = ids.compactMap(RecordID.normalized).filter { $0.count == RecordID.length }
        guard !keys.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        let found = try database.fetch(
            "SELECT \(Motivation.columns) FROM motivations WHERE message IS NOT NULL AND id IN (\(placeholders))",
            keys, map: Motivation.init)
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        return keys.compactMap { seen.insert($0).inserted ? byID[$0] : nil }
    }

    /// Motivations whose message contains `text`, ignoring case and accents ("cafe" finds "Café time"), newest
    /// first; an empty `text` gives `suggested()`, as a picker shows everything before anything is typed.
    ///
    /// The comparison runs in SQL through the registered `widgetd_fold` function (see `TextFolding`), since
    /// SQLite's `LIKE` folds ASCII letters only.
    public func matching(_ text: String) throws(StoreError) -> [Motivation] {
        let key = TextFolding.searchKey(text.trimmingWhitespace())
        guard !key.isEmpty else { return try suggested() }
        return try database.fetch(
            """
            SELECT \(Motivation.columns) FROM motivations
            WHERE message IS NOT NULL AND instr(\(TextFolding.searchFunction)(message), ?) > 0 \(Self.newestFirst)
            """, [key], map: Motivation.init)
    }
}
