/// A message tied to a place in the YAML source, before it knows which file it is in.
public struct LocatedError: Error, Sendable, Hashable {
    public var message: String
    public var mark: YAMLMark

    public init(_ message: String, at mark: YAMLMark) {
        self.message = message
        self.mark = mark
    }
}
