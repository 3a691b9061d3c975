import YAML

/// A widget's valid keys and their pairs. A widget has a handful, so they are searched in turn: a dictionary made for
/// each widget allocates its storage and hashes every key at each look-up, a cost `check` would pay for every widget
/// (docs/PERFORMANCE.md, "First writes and start-up").
struct WidgetFields {
    /// The keys, apart from their pairs: a look-up compares strings without copying a pair for each.
    private var keys: [String] = []
    private var pairs: [YAMLPair] = []

    init(capacity: Int) {
        keys.reserveCapacity(capacity)
        pairs.reserveCapacity(capacity)
    }

    /// Sets `key`'s pair; a key given twice keeps the later one, as a dictionary did.
    mutating func set(_ key: String, _ pair: YAMLPair) {
        if let index = keys.firstIndex(of: key) {
            pairs[index] = pair
        } else {
            keys.append(key)
            pairs.append(pair)
        }
    }

    subscript(key: String) -> YAMLPair? {
        keys.firstIndex(of: key).map { pairs[$0] }
    }
}
