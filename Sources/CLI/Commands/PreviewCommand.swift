import Config
import Formats
import FoundationEssentials
import Kind
import Providers
import Runtime
import Text
import Timelines

/// `widgetd preview KIND`: one snapshot, rendered as a plain-text bar shows it.
enum PreviewCommand {
    static func run(
        kind kindName: String, family familyName: String?, settings: [ParameterSetting], registry: KindRegistry,
        console: Console
    ) async -> Int32 {
        // A plugin kind's process serves this one snapshot, then goes.
        defer { registry.kinds.forEach { $0.providerProcess?.stop() } }
        do {
            let kind = try resolveKind(kindName, registry: registry)
            let family = try resolveFamily(familyName, for: kind)
            let configuration = try resolveParameters(settings, for: kind)
            let context = ProviderContext(instance: "preview", family: family, isPreview: true, now: Date())
            let entry = try await kind.snapshot(for: configuration, in: context)
            // Rendered as the daemon writes a plain file, so control characters, line breaks and tabs are cleaned
            // the same way: what a bar would show, not the provider's raw text; a relative date or timer as it reads
            // now.
            var shown = Renderer.render(
                entry.content.resolved(at: Date()), family: family, format: .plain, instance: "preview")
            if shown.hasSuffix("\n") { shown.removeLast() }
            console.out(shown)
            return ExitCode.success
        } catch let error as UsageError {
            console.report(error)
            return ExitCode.usage
        } catch {
            // A provider's message, whatever a plugin or script put in it.
            console.err("widgetd: error: the \(kindName) snapshot failed: \(TerminalText.escaped("\(error)"))")
            return ExitCode.failure
        }
    }

    private static func resolveKind(_ name: String, registry: KindRegistry) throws(UsageError) -> any WidgetKind {
        guard let kind = registry.kind(named: name) else {
            throw .unknown("kind", name, among: registry.names, listing: "known kinds", command: .preview)
        }
        return kind
    }

    private static func resolveFamily(_ name: String?, for kind: any WidgetKind) throws(UsageError) -> Family {
        guard let name else { return kind.families[0] }
        let supported = kind.families.map(\.rawValue).joined(separator: ", ")
        guard let family = Family(rawValue: name) else {
            let hint = Suggestion.didYouMean(
                name, in: Family.allCases.map(\.rawValue), then: "\(kind.name) supports \(supported)")
            throw UsageError("Unknown family '\(name)'\(hint).", command: .preview)
        }
        guard kind.families.contains(family) else {
            throw UsageError(
                "Kind '\(kind.name)' does not support family '\(name)'; supported: \(supported).", command: .preview)
        }
        return family
    }

    /// The kind's defaults with each `--set` applied, each checked as the config's `intent:` values are.
    private static func resolveParameters(
        _ settings: [ParameterSetting], for kind: any WidgetKind
    ) throws(UsageError) -> IntentValues {
        var values = kind.defaultConfiguration
        let names = kind.parameters.map(\.name)
        for setting in settings {
            guard let spec = kind.parameter(named: setting.key) else {
                let valid = names.isEmpty ? "it takes none" : "valid keys: \(names.joined(separator: ", "))"
                let hint = Suggestion.didYouMean(setting.key, in: names, then: valid)
                throw UsageError(
                    "Unknown parameter '\(setting.key)' for kind '\(kind.name)'\(hint).", command: .preview)
            }
            do {
                values[spec.name] = try ParameterDecoder.decode(text: setting.value, for: spec)
            } catch {
                throw UsageError("--set \(setting.key)=\(setting.value): \(error.message).", command: .preview)
            }
        }
        return values
    }
}
