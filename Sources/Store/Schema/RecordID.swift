import Basics
import FoundationEssentials

/// Record ids: a random UUID written as 32 lowercase hexadecimal digits, without dashes.
///
/// Without dashes and in one case, any run of leading characters is a prefix a person can type: four or more of
/// them pick out a record as long as no other id starts the same way (with 16⁴ = 65,536 possible four-digit prefixes,
/// a clash in a personal list is rare, and a longer prefix settles it).
public enum RecordID {
    /// The shortest prefix accepted; shorter ones would match by chance too often to be a safe way to name a record.
    public static let minimumPrefixLength = 4
    /// The length of a whole id.
    public static let length = 32

    /// A new random id (`UUID()`).
    public static func make() -> String {
        UUID().uuidString.lowercased().filter { $0 != "-" }
    }

    /// `reference` spelt as a stored id would be (lowercase, dashes dropped, so a pasted `UUID().uuidString` works),
    /// or nil when it cannot be the start of an id at all.
    static func normalized(_ reference: String) -> String? {
        let key = reference.trimmingSpaces().lowercased().filter { $0 != "-" }
        guard !key.isEmpty, key.count <= length, key.utf8.allSatisfy(isHexDigit) else { return nil }
        return key
    }

    /// ASCII only: `Character.isHexDigit` also accepts full-width digits, which no id contains.
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    /// The id in `table` that `reference` names: the whole id, or a prefix of at least `minimumPrefixLength`
    /// characters that starts exactly one id.
    ///
    /// - Parameter label: the SQL expression that names a record to a person, shown for each candidate when the
    ///   prefix is ambiguous. Written by the stores, never taken from input.
    static func resolve(
        _ reference: String, in table: String, label: String, database: Database
    ) throws(StoreError) -> String {
        guard let key = normalized(reference) else { throw .notFound(reference) }
        guard key.count >= minimumPrefixLength else { throw .referenceTooShort(reference) }
        // A range over the primary key's index: ids between the prefix and the prefix followed by 'g' (the character
        // after 'f') are exactly the ids that start with it.
        var candidates = try database.fetch(
            "SELECT id, \(label) FROM \(table) WHERE id >= ? AND id < ? ORDER BY id", [key, key + "g"]
        ) { row in
            StoreError.Candidate(id: row.string(at: 0) ?? "", label: row.string(at: 1) ?? "")
        }
        if candidates.isEmpty {
            // Ids this widgetd did not write (a hand-made or foreign version-1 file: `A1B2C3D4-…`) are compared as
            // `normalized` makes the reference, which costs a scan of the table, only when nothing matched as written.
            let folded = "replace(lower(id), '-', '')"
            candidates = try database.fetch(
                "SELECT id, \(label) FROM \(table) WHERE \(folded) >= ? AND \(folded) < ? ORDER BY id",
                [key, key + "g"]
            ) { row in
                StoreError.Candidate(id: row.string(at: 0) ?? "", label: row.string(at: 1) ?? "")
            }
        }
        switch candidates.count {
        case 0: throw .notFound(reference)
        case 1: return candidates[0].id
        default: throw .ambiguous(reference, candidates)
        }
    }
}
