/// Loads one YAML document into `YAMLNode`s using libyaml's event API.
///
/// We compose nodes ourselves rather than use libyaml's document API so that aliases, merge keys, duplicate keys and
/// the alias-bomb limit follow our rules, and so that scalars stay untyped for callers' schemas to interpret.
public enum YAMLLoader {
    /// Bounds on what a document may expand to, so hostile input fails fast instead of exhausting memory or stack.
    public struct Limits: Sendable, Hashable {
        /// Most nodes a document may produce, counting every node reached through an alias ("billion laughs").
        public var maxNodes: Int
        /// Deepest nesting of sequences and mappings; deeper trees would overflow recursive consumers' stacks.
        public var maxDepth: Int
        /// Longest scalar in UTF-8 bytes; a multi-megabyte value would make every check and message about it slow.
        public var maxScalarBytes: Int

        /// Creates limits.
        public init(maxNodes: Int = 1_000_000, maxDepth: Int = 1_000, maxScalarBytes: Int = 64 << 10) {
            self.maxNodes = maxNodes
            self.maxDepth = maxDepth
            self.maxScalarBytes = maxScalarBytes
        }

        /// One million nodes, one thousand levels, 64 KiB scalars: far beyond any real config, far below trouble.
        public static let `default` = Limits()
    }

    /// Loads a document from text.
    public static func load(_ text: String) throws(YAMLError) -> YAMLDocument {
        try load(text, limits: .default)
    }

    /// Loads a document from UTF-8 bytes (libyaml also accepts UTF-16 with a byte-order mark).
    public static func load(bytes: [UInt8]) throws(YAMLError) -> YAMLDocument {
        try load(bytes: bytes, limits: .default)
    }

    /// Loads a document from text with explicit limits.
    public static func load(_ text: String, limits: Limits) throws(YAMLError) -> YAMLDocument {
        var composer = YAMLComposer(reader: YAMLEventReader(bytes: text.utf8), limits: limits)
        return try composer.composeDocument()
    }

    /// Loads a document from bytes with explicit limits.
    public static func load(bytes: [UInt8], limits: Limits) throws(YAMLError) -> YAMLDocument {
        var composer = YAMLComposer(reader: YAMLEventReader(bytes: bytes), limits: limits)
        return try composer.composeDocument()
    }
}
