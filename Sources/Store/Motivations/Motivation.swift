import FoundationEssentials

/// One motivational message, as the seed's SwiftData `Motivation` model after its model change.
public struct Motivation: Sendable, Hashable, Identifiable {
    /// 32 lowercase hexadecimal digits (see `RecordID`).
    public var id: String
    /// The message; nil is allowed, as in the seed's model, and such a record is left out of the entity queries.
    public var message: String?
    /// When the motivation was added; lists show the newest first.
    public var timestamp: Date
    /// Whether the user starred it.
    public var isFavorite: Bool
    /// The widget's background, `#RGB`, `#RRGGBB` or `#RRGGBBAA`.
    public var backgroundColorHex: String

    /// The seed's fallback background, light grey, which the schema gives every new record.
    public static let defaultBackgroundColorHex = "#D3D3D3"

    /// A motivation as given; the store makes them with `MotivationStore.add`, this is for callers and tests.
    public init(
        id: String, message: String?, timestamp: Date, isFavorite: Bool = false,
        backgroundColorHex: String = Motivation.defaultBackgroundColorHex
    ) {
        self.id = id
        self.message = message
        self.timestamp = timestamp
        self.isFavorite = isFavorite
        self.backgroundColorHex = backgroundColorHex
    }

    /// The columns `init(row:)` reads, in its order.
    static let columns = "id, message, timestamp, is_favorite, background_color_hex"

    /// Reads a row selected with `columns`.
    init(row: Row) {
        self.init(
            id: row.string(at: 0) ?? "", message: row.string(at: 1),
            timestamp: Date(timeIntervalSince1970: row.double(at: 2)), isFavorite: row.bool(at: 3),
            backgroundColorHex: row.string(at: 4) ?? Self.defaultBackgroundColorHex)
    }
}
