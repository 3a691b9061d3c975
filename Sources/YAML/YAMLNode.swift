/// One node of a loaded YAML document: a scalar, a sequence or a mapping, with where it starts.
///
/// Nodes are plain values. An alias in the source becomes a copy of the anchored node (arrays make that copy cheap),
/// so consumers never see aliases, and the copy keeps the anchored node's marks so errors point at the definition.
public struct YAMLNode: Sendable {
    /// What the node holds.
    public enum Content: Sendable {
        /// A scalar, untyped.
        case scalar(YAMLScalar)
        /// A sequence, in source order.
        case sequence([YAMLNode])
        /// A mapping, in source order, with merge keys resolved and duplicate keys dropped.
        case mapping([YAMLPair])
    }

    /// What the node holds.
    public var content: Content
    /// Where the node starts, including any anchor or tag written before it.
    public var mark: YAMLMark
    /// The explicit tag if any, with the YAML core prefix shortened back to `!!` (e.g. `!!str`); nil when untagged.
    public var tag: String?

    /// Creates a node.
    public init(content: Content, mark: YAMLMark, tag: String? = nil) {
        self.content = content
        self.mark = mark
        self.tag = tag
    }

    /// The scalar, if this node is one.
    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    /// The items, if this node is a sequence.
    public var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The pairs, if this node is a mapping.
    public var mapping: [YAMLPair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// The scalar's text, if this node is a scalar; a shortcut for the most common question a schema asks.
    public var text: String? { scalar?.text }

    /// Whether this node is a null scalar (see `YAMLScalar.isNull`).
    public var isNull: Bool { scalar?.isNull ?? false }

    /// "a scalar", "a sequence" or "a mapping", for messages like "expected a mapping, found a scalar".
    public var kindDescription: String {
        switch content {
        case .scalar: "a scalar"
        case .sequence: "a sequence"
        case .mapping: "a mapping"
        }
    }

    /// The pair whose key is a scalar with exactly this text, if this node is a mapping holding one.
    ///
    /// A linear search: mappings in config files are short, and keeping pairs in an array preserves source order.
    public subscript(key: String) -> YAMLPair? {
        guard case .mapping(let pairs) = content else { return nil }
        return pairs.first { $0.key.scalar?.text == key }
    }
}
