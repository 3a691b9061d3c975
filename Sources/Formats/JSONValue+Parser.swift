/// Reads JSON text (RFC 8259) into a `JSONValue`: what `JSONSerialization.jsonObject(with:)` did, with errors that
/// say what is wrong and where.
extension JSONValue {
    /// Objects and arrays nested deeper than this are refused rather than risking the stack (JSONSerialization's
    /// limit too).
    public static let maximumDepth = 512

    /// Why text is not JSON, and the 0-based byte offset where reading stopped.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var reason: String
        public var offset: Int

        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// The value `bytes` (UTF-8) hold: any JSON value, with white space around it and nothing else.
    public static func parse(_ bytes: some Collection<UInt8>) throws(ParseError) -> JSONValue {
        let buffer = Array(bytes)
        var parser = Parser(bytes: buffer)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == buffer.count else { throw parser.failure("unexpected text after the value") }
        return value
    }

    /// `parse` of a string's UTF-8.
    public static func parse(_ text: String) throws(ParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

private struct Parser {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func failure(_ reason: String) -> JSONValue.ParseError {
        JSONValue.ParseError(reason: reason, offset: position)
    }

    mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    mutating func value(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        guard position < bytes.count else { throw failure("unexpected end of the text") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case let byte: throw failure("unexpected \(Self.describe(byte))")
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(JSONValue.ParseError) -> JSONValue {
        let expected = Array(word.utf8)
        guard bytes.count - position >= expected.count,
            Array(bytes[position..<position + expected.count]) == expected
        else { throw failure("unexpected \(Self.describe(bytes[position]))") }
        position += expected.count
        return value
    }

    private mutating func object(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        if try opensEmpty(closedBy: UInt8(ascii: "}"), depth: depth) { return .object(members) }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw failure(position < bytes.count ? "expected a string key" : "unexpected end of the text")
            }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "expected ':' after a key")
            skipWhitespace()
            // The last of duplicate keys wins, as in JSONSerialization.
            members[key] = try value(depth: depth)
            skipWhitespace()
            if try endOfList(UInt8(ascii: "}")) { return .object(members) }
        }
    }

    private mutating func array(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        var elements: [JSONValue] = []
        if try opensEmpty(closedBy: UInt8(ascii: "]"), depth: depth) { return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            if try endOfList(UInt8(ascii: "]")) { return .array(elements) }
        }
    }

    /// Steps over an object's or array's opening bracket, refusing one nested too deep: true when `close` follows at
    /// once (an empty one, its closing bracket stepped over too).
    private mutating func opensEmpty(closedBy close: UInt8, depth: Int) throws(JSONValue.ParseError) -> Bool {
        guard depth <= JSONValue.maximumDepth else { throw failure("nested deeper than \(JSONValue.maximumDepth)") }
        position += 1
        skipWhitespace()
        guard position < bytes.count, bytes[position] == close else { return false }
        position += 1
        return true
    }

    /// After a member or element: true at the closing bracket, false at a comma (both consumed).
    private mutating func endOfList(_ close: UInt8) throws(JSONValue.ParseError) -> Bool {
        guard position < bytes.count else { throw failure("unexpected end of the text") }
        let byte = bytes[position]
        position += 1
        if byte == close { return true }
        if byte == UInt8(ascii: ",") { return false }
        position -= 1
        throw failure("expected ',' or '\(Character(Unicode.Scalar(close)))'")
    }

    private mutating func expect(_ byte: UInt8, _ reason: String) throws(JSONValue.ParseError) {
        guard position < bytes.count, bytes[position] == byte else { throw failure(reason) }
        position += 1
    }

    private mutating func string() throws(JSONValue.ParseError) -> String {
        position += 1
        var text: [UInt8] = []
        while true {
            guard position < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let decoded = String(validating: text, as: UTF8.self) else {
                    throw failure("a string that is not valid UTF-8")
                }
                return decoded
            case UInt8(ascii: "\\"):
                position += 1
                try escape(into: &text)
            case 0..<0x20:
                throw failure("a control character inside a string")
            default:
                text.append(byte)
                position += 1
            }
        }
    }

    private mutating func escape(into text: inout [UInt8]) throws(JSONValue.ParseError) {
        guard position < bytes.count else { throw failure("unterminated string") }
        let byte = bytes[position]
        position += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[byte] {
            text.append(replacement)
            return
        }
        guard byte == UInt8(ascii: "u") else {
            position -= 1
            throw failure("unknown escape \\\(Self.describe(byte))")
        }
        var value = try hexQuad()
        if (0xD800..<0xDC00).contains(value) {
            // A high surrogate must be followed by `\u` and its low half.
            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else { throw failure("an unpaired surrogate") }
            position += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("an unpaired surrogate") }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw failure("an unpaired surrogate") }
        text.append(contentsOf: String(Character(scalar)).utf8)
    }

    private mutating func hexQuad() throws(JSONValue.ParseError) -> UInt32 {
        guard bytes.count - position >= 4,
            let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16),
            bytes[position..<position + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
        else { throw failure("\\u needs four hex digits") }
        position += 4
        return value
    }

    private mutating func number() throws(JSONValue.ParseError) -> JSONValue {
        let start = position
        func digits() -> Int {
            let first = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            return position - first
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let integerDigits = digits()
        guard integerDigits > 0 else { throw failure("a number needs digits") }
        guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
            position = integerStart
            throw failure("a number with a leading zero")
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw failure("a number needs digits after '.'") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else { throw failure("a number needs digits in its exponent") }
        }
        guard let number = Double(String(decoding: bytes[start..<position], as: UTF8.self)), number.isFinite else {
            position = start
            throw failure("a number too large for a Double")
        }
        return .number(number)
    }

    /// A byte as an error message names it: the character when printable ASCII, else its hex value.
    static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }
}
