import FoundationEssentials
import Kind
import Timelines

/// Stands in, in the daemon, for a kind whose plugin failed to load (no hello in time, a refused hello, a crash), until
/// the daemon loads it on a later try (`DaemonPlugins`): its widgets are in the running config, shown as a stale
/// placeholder with the reason, and every other widget runs.
///
/// It knows nothing of the plugin's declaration, so it takes any family and any parameter, as text; the real kind
/// checks them once the plugin says hello, and the config is applied again then.
public struct UnloadedPluginKind: WidgetKind {
    public let name: String
    /// Why the kind is missing, naming the plugin (or the plugins that may provide it).
    public let reason: String

    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }

    public var displayName: String { name }
    public var summary: String { "not loaded: \(reason)" }
    /// Every family, the widest text first, as the default of a widget that names none.
    public var families: [Family] { [.accessoryInline] + Family.allCases.filter { $0 != .accessoryInline } }
    public var parameters: [ParameterSpec] { [] }
    public var acceptsAnyParameter: Bool { true }
    /// Held to a script's parameter names until the plugin's declaration checks them: the stand-in knows no rule of
    /// the plugin's, and a name a script can be given, any plugin can.
    public var parameterExport: ParameterExport? { ExecKind.scriptParameters }
    public var acceptsAnyIntent: Bool { true }
    public var notLoadedReason: String? { reason }
    /// A plugin kind's own widget keys, so that a widget that sets them is accepted while it waits.
    public var widgetKeys: [WidgetKeySpec] { PluginKind.widgetKeys }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "\(name): not loaded")
    }

    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        throw NotLoaded(description: "kind '\(name)' is not loaded: \(reason)")
    }

    public func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        throw NotLoaded(description: "kind '\(name)' is not loaded: \(reason)")
    }

    struct NotLoaded: Error, CustomStringConvertible {
        var description: String
    }
}
