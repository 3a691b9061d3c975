/// A problem the loader found that did not stop it (duplicate keys).
///
/// These are returned rather than thrown because the document still has one sensible meaning (the first of two
/// duplicate keys wins), and a config author is better served by seeing every such problem at once.
public struct YAMLDiagnostic: Sendable, Hashable, YAMLProblem {
    /// What is wrong, e.g. `duplicate key 'name' (first at line 2, column 3)`.
    public var message: String
    /// Where the problem is.
    public var mark: YAMLMark

    /// Creates a diagnostic.
    public init(message: String, mark: YAMLMark) {
        self.message = message
        self.mark = mark
    }
}
