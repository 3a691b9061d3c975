import FoundationEssentials

/// A value as SQLite stores it: one of its five storage classes.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// A Swift value that can be bound to a statement parameter.
///
/// A protocol rather than overloads of `bind`, so `query(_:_:map:)` can take a variadic mix of types; `nil` binds
/// SQL `NULL`. Dates are left out on purpose: how a date is stored (here, seconds since 1970 as `REAL`) is a
/// schema decision the stores make explicitly.
public protocol SQLBindable: Sendable {
    /// The value to hand to SQLite.
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable {
    public var sqlValue: SQLValue { self }
}

extension Int: SQLBindable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Int64: SQLBindable {
    public var sqlValue: SQLValue { .integer(self) }
}

extension Int32: SQLBindable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Bool: SQLBindable {
    /// SQLite has no boolean class; 1 and 0 are what its own `TRUE` and `FALSE` mean.
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
}

extension Double: SQLBindable {
    public var sqlValue: SQLValue { .real(self) }
}

extension String: SQLBindable {
    public var sqlValue: SQLValue { .text(self) }
}

extension Substring: SQLBindable {
    public var sqlValue: SQLValue { .text(String(self)) }
}

extension Data: SQLBindable {
    public var sqlValue: SQLValue { .blob(self) }
}
