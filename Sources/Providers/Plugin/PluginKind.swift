import Formats
import FoundationEssentials
import Kind
import Timelines

/// A kind served by a plugin process: its declaration comes from the plugin's `hello` (through the declaration
/// cache), its calls become `timeline`, `snapshot` and `intent` requests to the plugin's one `PluginHost`.
public struct PluginKind: WidgetKind {
    public static let defaultTimeout: TimeInterval = 5

    public let declaration: PluginDeclaration
    public let host: PluginHost

    public init(declaration: PluginDeclaration, host: PluginHost) {
        self.declaration = declaration
        self.host = host
    }

    /// The kind a plugin that said hello serves, with a host that starts on first use; nil for one that did not.
    public init?(serving plugin: FoundPlugin) {
        guard let declaration = plugin.declaration else { return nil }
        self.init(
            declaration: declaration,
            host: PluginHost(name: plugin.source.name, argv: plugin.source.argv, kind: declaration.name))
    }

    public var name: String { declaration.name }
    public var displayName: String { declaration.displayName }
    public var summary: String { declaration.summary.isEmpty ? "plugin \(host.name)" : declaration.summary }
    public var families: [Family] { declaration.families }
    public var parameters: [ParameterSpec] { declaration.parameters }
    public var intents: [IntentSpec] { declaration.intents }

    public var widgetKeys: [WidgetKeySpec] { Self.widgetKeys }

    /// `plugin: tomato 1.2 (tomato --serve)`: the plugin, its version when it gave one, and how it is started.
    public var provider: String? {
        let version = declaration.version.isEmpty ? "" : " \(declaration.version)"
        return "plugin: \(host.name)\(version) (\(host.argv.joined(separator: " ")))"
    }

    /// The plugin's process: every call of the kind is a request to it.
    public var providerProcess: (any ProviderProcess)? { host }

    static let widgetKeys = [
        WidgetKeySpec(
            "timeout", type: .duration(0.01...300, words: []),
            summary: "how long the plugin may take to answer (default \(Int(defaultTimeout)) s)")
    ]

    /// In-process as far as the daemon's threads go: a call waits on a continuation, not on a thread.
    public func runMode(for settings: WidgetSettings) -> RunMode {
        RunMode(timeout: settings.duration("timeout") ?? Self.defaultTimeout)
    }

    public func defaultIntent(for button: MouseButton) -> String? {
        declaration.buttons[button]
    }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: declaration.placeholder)
    }

    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        let reply = try await host.request(
            request("timeline", configuration, context), timeout: timeout(context))
        return try PluginMessages.timeline(reply, now: context.now)
    }

    public func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        let reply = try await host.request(
            request("snapshot", configuration, context), timeout: timeout(context))
        guard let entry = try PluginMessages.timeline(reply, now: context.now).entries.first else {
            throw PluginProtocolError("\(host.name): the snapshot has no entry")
        }
        return entry
    }

    public func perform(
        _ invocation: IntentInvocation, for configuration: IntentValues, in context: ProviderContext
    ) async throws -> IntentOutcome {
        try requireDeclared(invocation)
        var message = request("intent", configuration, context)
        message["intent"] = JSONValue(invocation.intent)
        message["parameters"] = PluginMessages.json(invocation.parameters)
        if let click = invocation.click { message["click"] = PluginMessages.json(click) }
        let reply: [String: JSONValue]
        do {
            reply = try await host.request(message, timeout: timeout(context))
        } catch {
            throw IntentError("\(error)")
        }
        let timeline = reply["entries"] == nil ? nil : try PluginMessages.timeline(reply, now: context.now)
        return IntentOutcome(
            reply["message"]?.string ?? "\(invocation.intent) done",
            reloadsKind: reply["reload"]?.string == "all",
            timeline: timeline)
    }

    private func timeout(_ context: ProviderContext) -> TimeInterval {
        context.settings.duration("timeout") ?? Self.defaultTimeout
    }

    private func request(
        _ type: String, _ configuration: IntentValues, _ context: ProviderContext
    ) -> [String: JSONValue] {
        [
            "type": JSONValue(type), "instance": JSONValue(context.instance),
            "family": JSONValue(context.family.rawValue), "configuration": PluginMessages.json(configuration),
            "now": JSONValue(context.now.timeIntervalSince1970), "time_zone": JSONValue(context.timeZone.identifier),
            "preview": JSONValue(context.isPreview), "current": context.current.map(PluginMessages.json) ?? .null,
        ]
    }
}

/// Turns the daemon's values into the protocol's JSON and a reply into a timeline.
enum PluginMessages {
    static func timeline(_ reply: [String: JSONValue], now: Date) throws -> Timeline {
        let parsed: Timeline
        do {
            parsed = try ExecOutput.jsonTimeline(reply, now: now, defaultPolicy: .atEnd)
        } catch {
            throw PluginProtocolError("bad reply: \(error)")
        }
        // Markup checked as an exec script's is.
        guard parsed.entries.contains(where: { $0.content.block?.isMarkup == true }) else { return parsed }
        var notes = parsed.notes
        let entries = parsed.entries.map { entry in
            guard var block = entry.content.block, block.isMarkup else { return entry }
            var entry = entry
            ExecKind.checkMarkup(of: entry.content, in: &block, notes: &notes)
            entry.content.block = block
            return entry
        }
        var timeline = Timeline(entries: entries, policy: parsed.policy)
        timeline.notes = notes
        return timeline
    }

    static func json(_ values: IntentValues) -> JSONValue {
        var object: [String: JSONValue] = [:]
        for (name, value) in values.values {
            switch value {
            case .string(let text): object[name] = JSONValue(text)
            case .bool(let flag): object[name] = JSONValue(flag)
            case .int(let number): object[name] = JSONValue(number)
            case .enumCase(let name2): object[name] = JSONValue(name2)
            case .entity(.id(let id)): object[name] = JSONValue(id)
            case .entity(.match(let text)): object[name] = ["match": JSONValue(text)]
            case .color(let color): object[name] = JSONValue(color.hex)
            case .duration(let seconds): object[name] = JSONValue(seconds)
            }
        }
        return .object(object)
    }

    static func json(_ content: EntryContent) -> JSONValue {
        var object: [String: JSONValue] = [
            "text": JSONValue(content.text), "urgent": JSONValue(content.state == .urgent),
        ]
        if let short = content.shortText { object["short_text"] = JSONValue(short) }
        if let tooltip = content.tooltip { object["tooltip"] = JSONValue(tooltip) }
        if let color = content.foreground { object["color"] = JSONValue(color.hex) }
        if let background = content.background { object["background"] = JSONValue(background.hex) }
        return .object(object)
    }

    static func json(_ click: ClickLocation) -> JSONValue {
        var object: [String: JSONValue] = [
            "button": JSONValue(click.button.rawValue), "modifiers": JSONValue(click.modifiers),
        ]
        let numbers: [(String, Int?)] = [
            ("x", click.x), ("y", click.y), ("relative_x", click.relativeX), ("relative_y", click.relativeY),
            ("width", click.width), ("height", click.height),
        ]
        for (key, value) in numbers { if let value { object[key] = JSONValue(value) } }
        return .object(object)
    }
}

/// What the daemon and the commands do with a plugin's process without knowing it is one: stop it.
extension PluginHost: ProviderProcess {}
