/// A problem that stopped the parse (libyaml syntax error, unknown alias, alias bomb, several documents).
public struct YAMLError: Error, Sendable, Hashable, YAMLProblem {
    /// What is wrong; libyaml's wording for syntax errors, prefixed by its context when it gives one.
    public var message: String
    /// Where a human should look to fix it (not always where libyaml gave up; see `YAMLEventReader`).
    public var mark: YAMLMark

    /// Creates an error.
    public init(message: String, mark: YAMLMark) {
        self.message = message
        self.mark = mark
    }
}
