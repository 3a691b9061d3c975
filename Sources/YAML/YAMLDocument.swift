/// The result of loading one YAML source: its root node and any problems that did not stop loading.
public struct YAMLDocument: Sendable {
    /// The root node; nil for an empty document or a file of only comments.
    public var root: YAMLNode?
    /// Non-fatal problems, in source order: the first `ConfigLimits.maxShownErrors` of them.
    public var diagnostics: [YAMLDiagnostic]
    /// Problems found besides `diagnostics`, counted but not made.
    public var moreDiagnostics: Int

    /// Creates a document.
    public init(root: YAMLNode?, diagnostics: [YAMLDiagnostic] = [], moreDiagnostics: Int = 0) {
        self.root = root
        self.diagnostics = diagnostics
        self.moreDiagnostics = moreDiagnostics
    }
}
