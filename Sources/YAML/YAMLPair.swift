/// One key and its value in a mapping, kept in source order.
///
/// Mappings are arrays of pairs rather than dictionaries because YAML keys need not be scalars and because error
/// messages should list keys in the order the user wrote them.
public struct YAMLPair: Sendable {
    /// The key node; almost always a scalar.
    public var key: YAMLNode
    /// The value node.
    public var value: YAMLNode

    /// Creates a pair.
    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}
