/// The result of loading one YAML source: its root node and any problems that did not stop loading.
public struct YAMLDocument: Sendable {
    /// The root node; nil for an empty document or a file of only comments.
    public var root: YAMLNode?
    /// Non-fatal problems, in source order of discovery.
    public var diagnostics: [YAMLDiagnostic]

    /// Creates a document.
    public init(root: YAMLNode?, diagnostics: [YAMLDiagnostic] = []) {
        self.root = root
        self.diagnostics = diagnostics
    }
}
