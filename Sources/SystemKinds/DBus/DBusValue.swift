/// A D-Bus value read out of a message, with no C in it, so what the music kind makes of one is pure and testable.
/// Integers of every width come as `.integer`, and a variant as the value it holds.
public enum DBusValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case array([DBusValue])
    /// A dictionary (`a{sv}`, `a{ss}`): its entries in message order.
    case dictionary([(key: DBusValue, value: DBusValue)])
    /// A struct's fields, or a type this reader does not take apart (a file descriptor).
    case other([DBusValue])

    public static func == (left: DBusValue, right: DBusValue) -> Bool {
        switch (left, right) {
        case (.string(let a), .string(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.other(let a), .other(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    public var string: String? { if case .string(let text) = self { text } else { nil } }

    public var integer: Int64? {
        switch self {
        case .integer(let number): number
        case .double(let number) where number.isFinite && abs(number) < 9e18: Int64(number)
        default: nil
        }
    }

    /// The strings of an array of strings (`as`), or a lone string as one: MPRIS players differ here.
    public var strings: [String]? {
        switch self {
        case .string(let text): [text]
        case .array(let values): values.compactMap(\.string)
        default: nil
        }
    }

    /// A dictionary with string keys (`a{sv}`); the last of repeated keys wins.
    public var stringKeyed: [String: DBusValue]? {
        guard case .dictionary(let entries) = self else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries { if let key = entry.key.string { result[key] = entry.value } }
        return result
    }
}
