import FoundationEssentials

/// The values of the kind's own widget-level keys for one instance; keys the config leaves out are absent.
public struct WidgetSettings: Sendable, Hashable {
    public var values: [String: WidgetKeyValue]

    public init(_ values: [String: WidgetKeyValue] = [:]) {
        self.values = values
    }

    public subscript(name: String) -> WidgetKeyValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    public func command(_ name: String) -> [String]? {
        if case .command(let argv)? = values[name] { return argv }
        return nil
    }

    public func duration(_ name: String) -> TimeInterval? {
        if case .duration(let seconds)? = values[name] { return seconds }
        return nil
    }

    public func word(_ name: String) -> String? {
        if case .word(let word)? = values[name] { return word }
        return nil
    }

    public func int(_ name: String) -> Int? {
        if case .int(let value)? = values[name] { return value }
        return nil
    }
}
