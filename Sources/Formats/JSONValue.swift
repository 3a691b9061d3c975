import Text

/// A JSON value as scripts and plugins send it and as the daemon writes its messages to them: exec's JSON timelines,
/// i3blocks' click lines, the plugin protocol and its declaration cache.
///
/// Foundation's `JSONSerialization` did this with `[String: Any]`; it is not in FoundationEssentials (Foundation would
/// bring ICU into the daemon), and a typed value says what a key holds without casts. Numbers are Doubles, as
/// JavaScript reads them; a boolean is never a number.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(_ text: String) { self = .string(text) }
    public init(_ number: Int) { self = .number(Double(number)) }
    public init(_ number: Double) { self = .number(number) }
    public init(_ flag: Bool) { self = .bool(flag) }
    public init(_ texts: [String]) { self = .array(texts.map(JSONValue.string)) }
    public init(_ object: [String: JSONValue]) { self = .object(object) }

    /// The member `key` of an object; nil for a missing key and for any other value.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    public var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    public var bool: Bool? {
        if case .bool(let flag) = self { flag } else { nil }
    }

    /// A number; nil for `true` and `false`.
    public var number: Double? {
        if case .number(let number) = self { number } else { nil }
    }

    /// A number that is a whole number an `Int` holds: 4 and 4.0, not 4.5 or 1e300.
    public var int: Int? {
        guard case .number(let number) = self, number.rounded() == number,
            number >= -9_223_372_036_854_775_808, number < 9_223_372_036_854_775_808
        else { return nil }
        return Int(number)
    }

    public var array: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    public var object: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// An array of strings only; nil when any element is something else.
    public var strings: [String]? {
        array.flatMap { elements in
            let texts = elements.compactMap(\.string)
            return texts.count == elements.count ? texts : nil
        }
    }

    /// An array of objects only; nil when any element is something else.
    public var objects: [[String: JSONValue]]? {
        array.flatMap { elements in
            let members = elements.compactMap(\.object)
            return members.count == elements.count ? members : nil
        }
    }

    public var isNull: Bool { self == .null }
}

extension JSONValue {
    /// Compact JSON with each object's keys sorted, as `JSONSerialization` wrote with `.sortedKeys`; strings escaped
    /// by the renderers' escaper (slashes stay as they are).
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return bytes
    }

    /// `serialized()` as text.
    public var jsonText: String { String(decoding: serialized(), as: UTF8.self) }

    private func write(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): bytes.append(contentsOf: Self.text(of: number).utf8)
        case .string(let text): Escaping.appendJSONString(text, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Escaping.appendJSONString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                members[key]!.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A whole number without a fraction (`90`, not `90.0`), any other the shortest text that reads back the same;
    /// JSON has no infinity or NaN, so those are written as `null`.
    static func text(of number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number.rounded() == number, abs(number) < 1e15 { return String(Int(number)) }
        return number.description
    }
}

extension JSONValue: CustomStringConvertible {
    /// A string's own text, a number as JSON writes it, anything else as JSON: how an error message quotes a value.
    public var description: String {
        switch self {
        case .string(let text): text
        case .number(let number): Self.text(of: number)
        default: jsonText
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }

    public init(dictionaryLiteral members: (String, JSONValue)...) {
        self = .object(Dictionary(members, uniquingKeysWith: { _, last in last }))
    }
}
