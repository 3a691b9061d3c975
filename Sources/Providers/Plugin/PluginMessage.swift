import Formats
import FoundationEssentials

/// One line of a plugin's output, parsed once: a reply goes to its request, anything else counts towards the
/// plugin's limit of lines a second.
enum PluginMessage {
    case blank
    case oversized
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
}
