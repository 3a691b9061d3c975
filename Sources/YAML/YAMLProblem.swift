/// What the loader says about a place in the source: a `YAMLError` that stopped it, or a `YAMLDiagnostic` that did not.
public protocol YAMLProblem: CustomStringConvertible {
    /// What is wrong.
    var message: String { get }
    /// Where the problem is.
    var mark: YAMLMark { get }
}

extension YAMLProblem {
    /// `line L, column C: message`.
    public var description: String { "\(mark): \(message)" }
}
