import Synchronization
import YAML

/// The last `widgets.yaml` parsed, so that one process reads it into nodes once: the CLI asks for its `settings:`
/// (the store's path) and its `plugins:` (the kinds) before the full check; parsing the file again for each would
/// be most of `widgetd check`'s time on a large config (docs/PERFORMANCE.md, "First writes and start-up").
///
/// A hit needs the very same bytes, so an edit in between is parsed afresh. The full check takes the document
/// out (`take`), so a running daemon does not hold a copy of its configuration's nodes.
enum LastParse {
    private static let last = Mutex<(bytes: [UInt8], document: YAMLDocument)?>(nil)

    /// The document of `bytes` (valid UTF-8, checked by the caller), parsed now or by the last call; kept for the
    /// next caller.
    static func document(of bytes: [UInt8]) throws(YAMLError) -> YAMLDocument {
        if let document = cached(bytes, removing: false) { return document }
        let document = try YAMLLoader.load(bytes: bytes)
        last.withLock { $0 = (bytes, document) }
        return document
    }

    /// The document of `bytes` if the last parse was of the same bytes, which is forgotten either way.
    static func take(_ bytes: [UInt8]) -> YAMLDocument? {
        cached(bytes, removing: true)
    }

    private static func cached(_ bytes: [UInt8], removing: Bool) -> YAMLDocument? {
        last.withLock { last in
            defer { if removing { last = nil } }
            guard let entry = last, entry.bytes == bytes else { return nil }
            return entry.document
        }
    }
}
