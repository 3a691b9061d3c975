import Text

/// Appends JSON to a byte buffer exactly as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes it.
///
/// For records the daemon writes often: JSONEncoder's generic machinery costs several times the bytes it produces.
/// Callers write keys in sorted order; `InstanceRecordTests` checks the bytes against JSONEncoder's.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []
    /// Whether the object being written has no key yet, one flag per open object.
    private var objectIsEmpty: [Bool] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        objectIsEmpty.append(true)
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        objectIsEmpty.removeLast()
    }

    /// Starts a member of the innermost open object; the value follows.
    mutating func key(_ name: StaticString) {
        if objectIsEmpty[objectIsEmpty.count - 1] {
            objectIsEmpty[objectIsEmpty.count - 1] = false
        } else {
            bytes.append(UInt8(ascii: ","))
        }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// An array of values written by `element`, with commas between them.
    mutating func array<Element>(_ elements: [Element], _ element: (inout JSONBytes, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A finite number as JSONEncoder writes a Double: its description, without a trailing ".0".
    mutating func number(_ value: Double) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A string escaped as JSONEncoder escapes it: quote, backslash and control characters; slashes left alone.
    mutating func string(_ value: String) {
        Escaping.appendJSONString(value, to: &bytes)
    }

    mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
    }
}
