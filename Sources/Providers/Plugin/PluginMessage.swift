import Formats
import FoundationEssentials

/// One line of a plugin's output, parsed once: a reply goes to its request, anything else counts towards the
/// plugin's limit of lines a second.
enum PluginMessage {
    case blank
    /// A line over `PluginHost.lineCap`, dropped; `replyTo` as `PluginLineReader.Item.oversized` has it.
    case oversized(replyTo: Int?)
    case notUTF8([UInt8])
    case notAnObject([UInt8])
    /// An object with an `id` and no `type`: the answer to a request.
    case reply(id: Int, bytes: [UInt8])
    /// Anything else that is an object: `hello`, `reload`, `log`, or an unknown type.
    case push([String: JSONValue])

    init(_ bytes: [UInt8]) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            self = .blank
        } else if let object = (try? JSONValue.parse(bytes))?.object {
            if let id = object["id"]?.int, object["type"] == nil {
                self = .reply(id: id, bytes: bytes)
            } else {
                self = .push(object)
            }
        } else {
            self = String(validating: bytes, as: UTF8.self) == nil ? .notUTF8(bytes) : .notAnObject(bytes)
        }
    }

    /// The id of a reply cut at the cap, read from the line's head: `{"id": N,` with any whitespace between, as a JSON
    /// encoder that writes the id first gives it (the examples in docs/PLUGINS.md, and Python's `json.dumps` of a dict
    /// made so). A line whose head is anything else names no request.
    static func replyID(atTheHeadOf bytes: [UInt8]) -> Int? {
        var index = bytes.startIndex
        func skipWhitespace() {
            while index < bytes.endIndex, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[index]) { index += 1 }
        }
        func take(_ expected: String) -> Bool {
            let expected = Array(expected.utf8)
            guard bytes[index...].starts(with: expected) else { return false }
            index += expected.count
            return true
        }
        skipWhitespace()
        guard take("{") else { return nil }
        skipWhitespace()
        guard take("\"id\"") else { return nil }
        skipWhitespace()
        guard take(":") else { return nil }
        skipWhitespace()
        // The daemon's ids count up from 1; eighteen digits at most, so the number fits an `Int`.
        let digits = bytes[index...].prefix { (0x30...0x39).contains($0) }
        guard (1...18).contains(digits.count) else { return nil }
        index += digits.count
        skipWhitespace()
        guard take(",") else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
