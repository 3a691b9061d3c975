/// How a kind wants its entry laid out beyond the content's own fields (an i3blocks script's block properties, say),
/// carried from the kind to the output formats. The engine holds, compares and stores it without knowing its type:
/// which layouts there are and what they mean are the formats', so that Timelines knows no bar format.
public struct EntryPresentation: Sendable, Hashable {
    private let stored: any Hashable & Sendable

    public init(_ value: some Hashable & Sendable) {
        stored = value
    }

    /// The value, when it is a `Value`.
    public func value<Value: Hashable & Sendable>(as type: Value.Type) -> Value? {
        stored as? Value
    }

    /// Compared as the type `lhs` holds, opened in place: boxing both sides in `AnyHashable` would allocate, and the
    /// engine compares the shown content of every widget it steps.
    public static func == (lhs: EntryPresentation, rhs: EntryPresentation) -> Bool {
        func equals<Value: Hashable>(_ value: Value) -> Bool { rhs.stored as? Value == value }
        return equals(lhs.stored)
    }

    public func hash(into hasher: inout Hasher) {
        AnyHashable(stored).hash(into: &hasher)
    }
}
