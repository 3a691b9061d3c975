import FoundationEssentials
import Timelines

/// How an entity parameter names its record.
public enum EntityReference: Sendable, Hashable {
    /// An id, or a unique prefix of one.
    case id(String)
    /// The first record whose text matches (`{match: TEXT}`).
    case match(String)
}

/// A parameter's value, already checked against its `ParameterType`.
public enum ParameterValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case bool(Bool)
    case int(Int)
    case enumCase(String)
    case entity(EntityReference)
    case color(Color)
    /// Seconds.
    case duration(TimeInterval)

    /// How `widgetd kinds` shows a default.
    public var description: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .bool(let value): String(value)
        case .int(let value): String(value)
        case .enumCase(let name): name
        case .entity(.id(let id)): id
        case .entity(.match(let text)): "{match: \(text)}"
        case .color(let color): color.hex
        case .duration(let seconds): WidgetKeyType.describe(seconds)
        }
    }
}

/// The parameter values of one instance, defaults filled in (WidgetKit's configuration intent).
public struct IntentValues: Sendable, Hashable {
    public var values: [String: ParameterValue]

    public init(_ values: [String: ParameterValue] = [:]) {
        self.values = values
    }

    public subscript(name: String) -> ParameterValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    public func string(_ name: String) -> String? {
        if case .string(let text)? = values[name] { return text }
        return nil
    }

    public func bool(_ name: String) -> Bool? {
        if case .bool(let value)? = values[name] { return value }
        return nil
    }

    public func int(_ name: String) -> Int? {
        if case .int(let value)? = values[name] { return value }
        return nil
    }

    public func enumCase(_ name: String) -> String? {
        if case .enumCase(let value)? = values[name] { return value }
        return nil
    }

    public func entity(_ name: String) -> EntityReference? {
        if case .entity(let reference)? = values[name] { return reference }
        return nil
    }

    public func color(_ name: String) -> Color? {
        if case .color(let color)? = values[name] { return color }
        return nil
    }
}
