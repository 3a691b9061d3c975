import Kind
import Text

/// Intent parameters from `key=value` words, read by the same decoder as widgets.yaml's values: it lives with the
/// config, which knows YAML scalars, so the kind protocol does not.
extension WidgetKind {
    /// Reads `key=value` words (from a FIFO line or the command line) as the intent's typed parameters,
    /// exactly as `intent:` values in widgets.yaml are read; missing ones take their defaults.
    public func intentParameters(
        _ words: [(name: String, value: String)], for spec: IntentSpec
    ) throws(IntentError) -> IntentValues {
        var values = IntentValues()
        for parameter in spec.parameters {
            values[parameter.name] = parameter.defaultValue
        }
        let names = spec.parameters.map(\.name)
        for (name, value) in words {
            guard let parameter = spec.parameters.first(where: { $0.name == name }) else {
                let valid = names.isEmpty ? "it takes none" : "parameters: \(names.joined(separator: ", "))"
                throw IntentError(
                    "intent '\(spec.name)' has no parameter '\(name)'"
                        + Suggestion.didYouMean(name, in: names, then: valid))
            }
            do {
                values[name] = try ParameterDecoder.decode(text: value, for: parameter)
            } catch {
                throw IntentError("\(name)=\(value): \(error.message)")
            }
        }
        return values
    }
}
