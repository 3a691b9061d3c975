/// One case of an enum parameter, with the name a person reads (WidgetKit's `AppEnum` display representation).
public struct EnumCase: Sendable, Hashable {
    public var name: String
    public var displayName: String

    public init(_ name: String, displayName: String) {
        self.name = name
        self.displayName = displayName
    }
}

/// The type of a parameter; the config's scalars are read as this type and nothing else.
public enum ParameterType: Sendable, Hashable {
    case string
    case bool
    /// An integer, optionally bounded.
    case int(ClosedRange<Int>?)
    /// One of fixed cases (WidgetKit's `AppEnum`).
    case enumeration([EnumCase])
    /// A record chosen by id, unique id prefix, or `{match: TEXT}` (WidgetKit's `AppEntity`); the payload names
    /// the entity type, such as `motivation`.
    case entity(String)
    /// `#RGB`, `#RRGGBB` or `#RRGGBBAA`.
    case color
    /// Text with `%` conversions (a clock's strftime format), each one of the characters in `conversions`;
    /// its value is a string. An unknown conversion would show as typed, so it is an error.
    case format(conversions: String)
    /// A length of time (`500ms`, `5s`, `25m`, `1h`, or plain seconds), as plugins declare it.
    case duration

    /// The word `widgetd kinds` and error messages use for the type.
    public var name: String {
        switch self {
        case .string: "string"
        case .bool: "bool"
        case .int(let range?): "int \(range.lowerBound)...\(range.upperBound)"
        case .int(nil): "int"
        case .enumeration: "enum"
        case .entity(let type): "entity (\(type))"
        case .color: "colour"
        case .format: "format"
        case .duration: "duration"
        }
    }
}

/// A configuration parameter a kind declares (WidgetKit's `@Parameter` of a configuration intent).
public struct ParameterSpec: Sendable, Hashable {
    public var name: String
    public var displayName: String
    public var type: ParameterType
    /// Used when the config leaves the parameter out; nil means it is optional with no value.
    public var defaultValue: ParameterValue?
    public var summary: String

    public init(
        _ name: String, displayName: String, type: ParameterType, default defaultValue: ParameterValue? = nil,
        summary: String = ""
    ) {
        self.name = name
        self.displayName = displayName
        self.type = type
        self.defaultValue = defaultValue
        self.summary = summary
    }
}

/// An action a kind can perform on a click or an `intent` line (WidgetKit's interactive `AppIntent`).
public struct IntentSpec: Sendable, Hashable {
    public var name: String
    public var summary: String
    public var parameters: [ParameterSpec]

    public init(_ name: String, summary: String, parameters: [ParameterSpec] = []) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
    }
}
