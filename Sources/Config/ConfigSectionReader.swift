import Kind
import YAML

/// How a top-level section the kinds declare (`KindRegistry.sections`) is read: the checker hands it the section's
/// node and keeps what it returns in `Configuration.sections` under its key, so the core knows no section's type.
public protocol ConfigSectionReader: TopLevelSection {
    associatedtype Value: Sendable

    /// The section's value, with each mistake reported through `validator` at its place in the file; the valid part
    /// of a section with mistakes, for the early reads that want only that.
    func read(_ node: YAMLNode, checking validator: inout ConfigValidator) -> Value
}

extension Configuration {
    /// What `reader`'s section held; nil when the file has no such section.
    public func section<Reader: ConfigSectionReader>(_ reader: Reader) -> Reader.Value? {
        sections[reader.key] as? Reader.Value
    }
}

extension ConfigLoader {
    /// Only the valid part of `reader`'s section in the file at `path`, whatever else is wrong with it: the CLI and
    /// the daemon read `plugins:` to know the plugin kinds before they check the widgets (the full check reports the
    /// section's errors). Nil when the file cannot be read or has no such section.
    public static func section<Reader: ConfigSectionReader>(_ reader: Reader, path: String) -> Reader.Value? {
        guard let bytes = try? FileReading.contents(of: path, atMost: ConfigLimits.maxFileBytes) else { return nil }
        return section(reader, bytes: bytes)
    }

    /// `section(_:path:)` of `bytes`, a config's text (the copy of the config the daemon runs).
    public static func section<Reader: ConfigSectionReader>(_ reader: Reader, bytes: [UInt8]) -> Reader.Value? {
        guard firstInvalidUTF8(in: bytes) == nil,
            let root = try? LastParse.document(of: bytes).root, let pairs = root.mapping,
            let section = pairs.first(where: { $0.key.scalar?.text == reader.key })
        else { return nil }
        var validator = ConfigValidator(registry: KindRegistry([]))
        return reader.read(section.value, checking: &validator)
    }
}
