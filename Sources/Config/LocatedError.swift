import Diagnostics
import YAML

/// A message tied to a place in the YAML source, before it knows which file it is in.
public struct LocatedError: Error, Sendable, Hashable {
    public var message: String
    public var mark: YAMLMark
    /// For a problem inside a scalar (a format's conversion): the character offset in its value, which the
    /// validator turns into a mark with the file's lines; `mark` is then the scalar's start.
    public var valueOffset: Int?
    /// Carried to the file's `Diagnostic`.
    public var code: Diagnostic.Code?

    public init(_ message: String, at mark: YAMLMark, valueOffset: Int? = nil, code: Diagnostic.Code? = nil) {
        self.message = message
        self.mark = mark
        self.valueOffset = valueOffset
        self.code = code
    }
}
