import FoundationEssentials

/// The row a statement is positioned on, handed to a `query` map; columns are numbered from 0.
///
/// Valid only inside the map call it was given to: the next step moves the statement on, so read what you need into
/// your own values there.
public struct Row {
    let statement: Statement

    /// How many columns the row has.
    public var columnCount: Int { statement.columnCount }

    /// The name of column `index`.
    public func columnName(at index: Int) -> String { statement.columnName(at: index) }

    /// Whether column `index` is `NULL`.
    public func isNull(at index: Int) -> Bool { statement.isNull(at: index) }

    /// Column `index` as an `Int`; `NULL` reads as 0.
    public func int(at index: Int) -> Int { statement.int(at: index) }

    /// Column `index` as an `Int64`; `NULL` reads as 0.
    public func int64(at index: Int) -> Int64 { statement.int64(at: index) }

    /// Column `index` as a boolean (non-zero is true).
    public func bool(at index: Int) -> Bool { statement.bool(at: index) }

    /// Column `index` as a `Double`; `NULL` reads as 0.
    public func double(at index: Int) -> Double { statement.double(at: index) }

    /// Column `index` as a `Double`, nil for `NULL`.
    public func optionalDouble(at index: Int) -> Double? {
        statement.isNull(at: index) ? nil : statement.double(at: index)
    }

    /// Column `index` as text, nil for `NULL`.
    public func string(at index: Int) -> String? { statement.string(at: index) }

    /// Column `index` as bytes, nil for `NULL`.
    public func data(at index: Int) -> Data? { statement.data(at: index) }
}
