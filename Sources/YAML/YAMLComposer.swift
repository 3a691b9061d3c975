/// Turns the reader's events into one `YAMLDocument`: expands aliases, resolves merge keys, drops duplicate keys.
///
/// It keeps open collections on an explicit stack rather than recursing, so that hostile nesting depth ends in a
/// `YAMLError` at `Limits.maxDepth` instead of a stack overflow.
struct YAMLComposer {
    /// A finished node and the bookkeeping the composer needs about it.
    private struct Composed {
        var node: YAMLNode
        /// Nodes in this subtree, counting every alias expansion. Stored with an anchor, it is computed once, so an
        /// alias costs a single addition in the alias-bomb check however large its target is.
        var size: Int
        /// Where this occurrence is in the source: the alias for an alias, else the node's own mark. Errors about
        /// how a node is *used* (a bad merge value) point here; the node itself keeps its definition's mark.
        var site: YAMLMark
    }

    /// A sequence or mapping whose end event has not arrived yet.
    private struct OpenCollection {
        var isMapping: Bool
        var properties: YAMLEvent.Properties
        /// For a mapping: key, value, key, value... (libyaml emits an empty scalar for a missing value).
        var children: [Composed] = []
        var size = 1
    }

    private let reader: YAMLEventReader
    private let limits: YAMLLoader.Limits
    private var anchors: [String: Composed] = [:]
    /// Anchors of collections still open: an alias to one of them would make the tree contain itself.
    private var openAnchors: [String: Int] = [:]
    private var nodeCount = 0
    /// Duplicate keys: all counted, whatever the limit (composing goes on to the end), the first few made.
    private var diagnostics = EarliestErrors<YAMLDiagnostic>(limit: .max)

    init(reader: YAMLEventReader, limits: YAMLLoader.Limits) {
        self.reader = reader
        self.limits = limits
    }

    /// Reads the whole stream, which must hold at most one document.
    mutating func composeDocument() throws(YAMLError) -> YAMLDocument {
        guard case .streamStart = try reader.next() else {
            throw Self.unexpectedEvent()
        }
        switch try reader.next() {
        case .streamEnd:
            // Empty input, or only whitespace and comments: libyaml produces no document at all.
            return YAMLDocument(root: nil)
        case .documentStart:
            break
        default:
            throw Self.unexpectedEvent()
        }
        let root = try composeNode()
        guard case .documentEnd = try reader.next() else {
            throw Self.unexpectedEvent()
        }
        switch try reader.next() {
        case .streamEnd:
            break
        case .documentStart(let mark, _):
            throw YAMLError(message: "expected a single YAML document", mark: mark)
        default:
            throw Self.unexpectedEvent()
        }
        let node = root.node
        // `---` with nothing after it: libyaml fills in an empty plain scalar; to callers that is an empty document.
        let isEmpty = node.tag == nil && node.scalar.map { $0.style == .plain && $0.text.isEmpty } == true
        let kept = diagnostics.errors
        return YAMLDocument(
            root: isEmpty ? nil : node, diagnostics: kept, moreDiagnostics: diagnostics.count - kept.count)
    }

    /// Composes the node that starts with the next event, and everything inside it.
    private mutating func composeNode() throws(YAMLError) -> Composed {
        var stack: [OpenCollection] = []
        while true {
            let finished: Composed
            let event = try reader.next()
            switch event {
            case .scalar(let scalar, let properties):
                try count(1, at: properties.mark)
                let length = scalar.text.utf8.count
                guard length <= limits.maxScalarBytes else {
                    throw YAMLError(
                        message:
                            "a scalar of \(length) bytes is longer than the limit of \(limits.maxScalarBytes) bytes",
                        mark: properties.mark)
                }
                finished = Composed(
                    node: YAMLNode(content: .scalar(scalar), mark: properties.mark, tag: properties.tag),
                    size: 1,
                    site: properties.mark
                )
                register(finished, as: properties.anchor)
            case .alias(let name, let mark):
                if openAnchors[name, default: 0] > 0 {
                    throw YAMLError(message: "alias '\(name)' refers to a node that contains it", mark: mark)
                }
                guard let anchored = anchors[name] else {
                    throw YAMLError(message: "unknown alias '\(name)'", mark: mark)
                }
                try count(anchored.size, at: mark)
                finished = Composed(node: anchored.node, size: anchored.size, site: mark)
            case .sequenceStart(let properties), .mappingStart(let properties):
                guard stack.count < limits.maxDepth else {
                    throw YAMLError(
                        message: "document nests deeper than \(limits.maxDepth) levels",
                        mark: properties.mark
                    )
                }
                try count(1, at: properties.mark)
                if let anchor = properties.anchor {
                    openAnchors[anchor, default: 0] += 1
                }
                stack.append(OpenCollection(isMapping: event.isMappingStart, properties: properties))
                continue
            case .sequenceEnd, .mappingEnd:
                guard let collection = stack.popLast() else {
                    throw Self.unexpectedEvent()
                }
                let properties = collection.properties
                let content: YAMLNode.Content
                if collection.isMapping {
                    content = .mapping(try resolveMapping(collection.children))
                } else {
                    content = .sequence(collection.children.map(\.node))
                }
                finished = Composed(
                    node: YAMLNode(content: content, mark: properties.mark, tag: properties.tag),
                    size: collection.size,
                    site: properties.mark
                )
                if let anchor = properties.anchor {
                    openAnchors[anchor, default: 1] -= 1
                }
                register(finished, as: properties.anchor)
            default:
                throw Self.unexpectedEvent()
            }
            guard !stack.isEmpty else {
                return finished
            }
            stack[stack.count - 1].children.append(finished)
            stack[stack.count - 1].size += finished.size
        }
    }

    private mutating func register(_ node: Composed, as anchor: String?) {
        // A later anchor with the same name replaces the earlier one for the aliases after it, as YAML specifies.
        if let anchor {
            anchors[anchor] = node
        }
    }

    /// Adds `nodes` to the running total, including nodes reached through aliases, and stops an alias bomb.
    private mutating func count(_ nodes: Int, at mark: YAMLMark) throws(YAMLError) {
        nodeCount += nodes
        if nodeCount > limits.maxNodes {
            throw YAMLError(message: "document expands to more than \(limits.maxNodes) nodes (alias bomb?)", mark: mark)
        }
    }

    // MARK: - Mappings

    /// Pairs up a mapping's children, reports and drops duplicate keys, and splices in merged (`<<`) mappings.
    ///
    /// Explicit keys win over merged ones wherever they are written, and among merged mappings the earlier wins
    /// (the YAML merge-key spec). Merged pairs go where their `<<` was, in their own order, minus overridden keys.
    private mutating func resolveMapping(_ children: [Composed]) throws(YAMLError) -> [YAMLPair] {
        var pairs: [YAMLPair] = []
        pairs.reserveCapacity(children.count / 2)
        // A small mapping (a widget's few keys, its intent) finds an earlier key by a scan of the keys before it, so that
        // 10,000 widgets do not make 20,000 dictionaries; a large one keeps each key's first place in a dictionary.
        let isSmall = children.count <= Self.smallMappingChildren
        var firstKeyMarks: [String: YAMLMark] = [:]
        var merges: [(position: Int, value: Composed)] = []
        var index = 0
        while index + 1 < children.count {
            let key = children[index]
            let value = children[index + 1]
            index += 2
            if Self.isMergeKey(key.node) {
                merges.append((pairs.count, value))
                continue
            }
            if let text = key.node.scalar?.text {
                let earlier = isSmall ? Self.firstSite(of: text, before: index - 2, in: children) : firstKeyMarks[text]
                if let first = earlier {
                    diagnostics.add(at: key.site) {
                        YAMLDiagnostic(
                            message: "duplicate key '\(ConfigLimits.quoted(text))' (first at \(first))", mark: key.site)
                    }
                    continue
                }
                if !isSmall { firstKeyMarks[text] = key.site }
            }
            pairs.append(YAMLPair(key: key.node, value: value.node))
        }
        guard !merges.isEmpty else {
            return pairs
        }

        // The explicit keys kept, which `firstKeyMarks` holds only for a large mapping.
        var taken = isSmall ? Set(pairs.compactMap { $0.key.scalar?.text }) : Set(firstKeyMarks.keys)
        var result: [YAMLPair] = []
        var nextMerge = 0
        for position in 0...pairs.count {
            while nextMerge < merges.count, merges[nextMerge].position == position {
                for source in try Self.mergeSources(merges[nextMerge].value) {
                    for pair in source {
                        // Non-scalar keys cannot be compared cheaply and never clash in practice; keep them all.
                        if let text = pair.key.scalar?.text, !taken.insert(text).inserted {
                            continue
                        }
                        result.append(pair)
                    }
                }
                nextMerge += 1
            }
            if position < pairs.count {
                result.append(pairs[position])
            }
        }
        return result
    }

    /// Children (keys and values) up to which a mapping looks for duplicate keys by a scan instead of a dictionary.
    private static let smallMappingChildren = 16

    /// Where the first key spelled `text` among the mapping's keys before child `end` is, if one is (merge keys are not
    /// keys): the first such key is always the one kept.
    private static func firstSite(of text: String, before end: Int, in children: [Composed]) -> YAMLMark? {
        for index in stride(from: 0, to: end, by: 2) {
            let key = children[index].node
            if key.scalar?.text == text, !isMergeKey(key) { return children[index].site }
        }
        return nil
    }

    /// A plain `<<` (optionally tagged `!!merge`); a quoted `"<<"` is an ordinary key.
    private static func isMergeKey(_ node: YAMLNode) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain, scalar.text == "<<" else {
            return false
        }
        return node.tag == nil || node.tag == "!!merge"
    }

    /// The mappings a `<<` value names: the value itself, or each item of a sequence, earliest first.
    private static func mergeSources(_ value: Composed) throws(YAMLError) -> [[YAMLPair]] {
        switch value.node.content {
        case .mapping(let pairs):
            return [pairs]
        case .sequence(let items):
            var sources: [[YAMLPair]] = []
            for item in items {
                guard let pairs = item.mapping else {
                    throw mergeError(found: item.kindDescription, at: item.mark)
                }
                sources.append(pairs)
            }
            return sources
        case .scalar:
            throw mergeError(found: value.node.kindDescription, at: value.site)
        }
    }

    private static func mergeError(found kind: String, at mark: YAMLMark) -> YAMLError {
        YAMLError(message: "merge key '<<' expects a mapping or a sequence of mappings, found \(kind)", mark: mark)
    }

    /// libyaml guarantees a well-formed event order, so this only guards against a broken libyaml.
    private static func unexpectedEvent() -> YAMLError {
        YAMLError(message: "unexpected event from libyaml", mark: YAMLMark(line: 1, column: 1))
    }
}
