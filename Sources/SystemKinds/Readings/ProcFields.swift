/// The lines of a /proc file as fields of bytes, split on spaces and tabs: /proc/stat and /proc/meminfo are read at
/// every sample, and splitting them as Swift `String`s (Unicode-aware, an array of substrings per line) cost more than
/// the kernel took to produce them.
struct ProcFields {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// Calls `body` with each line's fields as ranges of `bytes`, stopping early when it answers false.
    func forEachLine(_ body: ([Range<Int>]) -> Bool) {
        var fields: [Range<Int>] = []
        var start: Int?
        var index = 0
        while index <= bytes.count {
            let byte = index < bytes.count ? bytes[index] : UInt8(ascii: "\n")
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") {
                if let first = start { fields.append(first..<index) }
                start = nil
                if byte == UInt8(ascii: "\n") {
                    if !fields.isEmpty, !body(fields) { return }
                    fields.removeAll(keepingCapacity: true)
                }
            } else if start == nil {
                start = index
            }
            index += 1
        }
    }

    /// The field as a decimal number; nil for anything else (or more than 19 digits).
    func number(_ field: Range<Int>) -> UInt64? {
        guard !field.isEmpty, field.count <= 19 else { return nil }
        var value: UInt64 = 0
        for index in field {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + UInt64(digit)
        }
        return value
    }

    /// Whether the field is exactly `text`.
    func field(_ field: Range<Int>, is text: StaticString) -> Bool {
        guard field.count == text.utf8CodeUnitCount else { return false }
        return text.withUTF8Buffer { expected in
            zip(field, expected).allSatisfy { bytes[$0] == $1 }
        }
    }

    /// Whether the field starts with `prefix`.
    func field(_ field: Range<Int>, startsWith prefix: StaticString) -> Bool {
        guard field.count >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { expected in
            zip(field, expected).allSatisfy { bytes[$0] == $1 }
        }
    }
}
