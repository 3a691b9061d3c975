import Config
import Foundation
import Kind
import Timelines
import YAML

/// A kind with one parameter of every type, so config tests do not depend on the shipped kinds.
struct SampleKind: WidgetKind {
    let name = "sample"
    let displayName = "Sample"
    let summary = "A kind for tests."
    let families: [Family] = [.systemSmall, .systemMedium]
    let parameters = [
        ParameterSpec(
            "mode", displayName: "Mode",
            type: .enumeration([EnumCase("fast", displayName: "Fast"), EnumCase("slow", displayName: "Slow")]),
            default: .enumCase("fast")),
        ParameterSpec("label", displayName: "Label", type: .string),
        ParameterSpec("enabled", displayName: "Enabled", type: .bool, default: .bool(false)),
        ParameterSpec("count", displayName: "Count", type: .int(1...10), default: .int(3)),
        ParameterSpec("tint", displayName: "Tint", type: .color),
        ParameterSpec("record", displayName: "Record", type: .entity("record")),
    ]
    let intents = [IntentSpec("poke", summary: "Pokes it.")]

    func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "…")
    }

    func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        TimelineEntry(date: context.now, content: EntryContent(text: "sample"))
    }

    func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        Timeline(entries: [try await snapshot(for: configuration, in: context)], policy: .never)
    }
}

/// A kind that runs commands, as `exec` does, for the `command:` checks.
struct CommandKind: WidgetKind {
    let name = "exec"
    let displayName = "Command"
    let summary = "Runs a command."
    let families: [Family] = [.systemSmall]
    let parameters: [ParameterSpec] = []
    var acceptsAnyParameter: Bool { true }
    var widgetKeys: [WidgetKeySpec] {
        [
            WidgetKeySpec("command", type: .command, requiredHint: "command: [program, arguments…]", summary: ""),
            WidgetKeySpec("interval", type: .duration(1...31_536_000, words: ["persist"]), summary: ""),
            WidgetKeySpec("timeout", type: .duration(0.01...300, words: []), summary: ""),
        ]
    }

    func runMode(for settings: WidgetSettings) -> RunMode {
        RunMode(blocksThread: true, timeout: settings.duration("timeout") ?? 5)
    }

    func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "…")
    }

    func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        TimelineEntry(date: context.now, content: EntryContent(text: "ran"))
    }

    func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        Timeline(entries: [try await snapshot(for: configuration, in: context)], policy: .never)
    }
}

/// A kind that takes any parameter and hands each on under a name of its own, as `exec` exports a script's, for the
/// checks of `WidgetKind.parameterExport`.
struct ExportingKind: WidgetKind {
    let name = "export"
    let displayName = "Export"
    let summary = "Exports its parameters."
    let families: [Family] = [.systemSmall]
    let parameters = [ParameterSpec("my_tag", displayName: "Tag", type: .string)]
    var acceptsAnyParameter: Bool { true }
    var parameterExport: ParameterExport? {
        ParameterExport(
            receiver: "the sample program", form: "SAMPLE_<NAME>", nameRule: "write lower case letters, '_' or '-'",
            acceptsName: { name in !name.isEmpty && name.allSatisfy { $0.isLowercase || $0 == "_" || $0 == "-" } },
            exportedName: { "SAMPLE_" + $0.uppercased().replacingOccurrences(of: "-", with: "_") })
    }

    func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "…")
    }

    func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        TimelineEntry(date: context.now, content: EntryContent(text: "exported"))
    }

    func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        Timeline(entries: [try await snapshot(for: configuration, in: context)], policy: .never)
    }
}

/// A top-level section the kinds read, as `plugins:` is read: names to numbers.
struct LimitsSection: ConfigSectionReader {
    let key = "limits"
    let summary = "Names to numbers, for tests."

    func read(_ node: YAMLNode, checking validator: inout ConfigValidator) -> [String: Int] {
        guard let pairs = validator.mapping(node, what: "'limits'", expecting: "names to numbers") else { return [:] }
        var limits: [String: Int] = [:]
        for pair in pairs {
            guard let name = validator.keyName(pair.key), let text = validator.text(pair.value, for: name) else {
                continue
            }
            guard let number = Int(text) else {
                validator.report("'\(name)' must be a number, found '\(text)'", at: pair.value.mark)
                continue
            }
            limits[name] = number
        }
        return limits
    }
}

extension KindRegistry {
    static let sample = KindRegistry([SampleKind(), CommandKind()])
    /// The sample kinds with a section of their own, `limits:`.
    static let sampleWithLimits = KindRegistry([SampleKind()], sections: [LimitsSection()])
}

/// Loads `text` as widgets.yaml with the sample registry.
func loadConfig(_ text: String) -> ConfigLoadResult {
    ConfigLoader.load(bytes: Array(text.utf8), file: "widgets.yaml", registry: .sample)
}
