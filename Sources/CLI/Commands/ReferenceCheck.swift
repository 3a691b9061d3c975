import Config
import Diagnostics
import FoundationEssentials
import Kind
import YAML

/// `widgetd check`'s look beyond the file: each widget's kind says whether what its intent names exists (a
/// motivation's id in the store), and each problem becomes a warning at the parameter's value.
enum ReferenceCheck {
    static func warnings(for configuration: Configuration, file: String, registry: KindRegistry) -> [Diagnostic] {
        let problems = configuration.widgets.flatMap { widget in
            (registry.kind(named: widget.kind)?.referenceProblems(in: widget.intent) ?? []).map { (widget, $0) }
        }
        guard !problems.isEmpty else { return [] }
        // The parsed configuration keeps no marks for intent values; the file is read again only to place a warning.
        let document = (FileManager.default.contents(atPath: file)).flatMap { try? YAMLLoader.load(bytes: [UInt8]($0)) }
        return problems.map { widget, problem in
            let mark = valueMark(of: problem.parameter, inWidget: widget.name, document: document)
            return Diagnostic(
                "widget '\(widget.name)': \(problem.message)", file: file, at: mark ?? widget.mark, severity: .warning)
        }
    }

    /// Where `widgets.<name>.intent.<parameter>` is written; nil when it comes from elsewhere (a merge key).
    static func valueMark(of parameter: String, inWidget name: String, document: YAMLDocument?) -> YAMLMark? {
        var node = document?.root
        for key in ["widgets", name, "intent", parameter] {
            node = node?.mapping?.first { $0.key.text == key }?.value
        }
        return node?.mark
    }
}
