import FoundationEssentials
import Kind
import Timelines

/// A network interface's state and addresses, pushed by rtnetlink: every widget is a session of the process's one
/// `RouteListener`, which hears each link and address change of the network namespace the daemon runs in. Only what
/// the kernel announces nothing about, throughput and Wi-Fi link quality, is sampled, at `interval:`, and only when a
/// format shows it; a widget that shows neither wakes only when the network changes.
///
/// An interface that is down or not there is a state, shown by `format_down:` (i3status's): never an error.
public struct NetworkKind: WidgetKind {
    public let name = "network"
    public let displayName = "Network"
    public let summary =
        "An interface's state, addresses, throughput, Wi-Fi SSID and quality, pushed by rtnetlink."
    public let families = SampledParameters.families
    public var showsWholeTextWithoutFamily: Bool { true }
    public let parameters = [
        ParameterSpec(
            "interface", displayName: "Interface", type: .string,
            summary: "an interface name (eth0, wlan0); absent: the default route's, else the first one up but lo"),
        SampledParameters.format(default: Self.defaultFormat, placeholders: Self.placeholderList),
        ParameterSpec(
            "format_down", displayName: "Format when down", type: .string, default: .string(Self.defaultFormatDown),
            summary: "the text while the interface is down or absent, with the same placeholders"),
        ParameterSpec(
            "format_alt", displayName: "Alternate format", type: .string, default: .string(Self.defaultFormatAlt),
            summary: "the text a click toggles to (intent toggle_address), with the same placeholders"),
    ]
    public let intents = [
        IntentSpec(
            Self.toggleIntent, summary: "switch between format and format_alt (by default the interface's address)")
    ]
    public var widgetKeys: [WidgetKeySpec] { [SampledParameters.intervalKey(default: Self.defaultInterval)] }

    static let defaultFormat = "E: {ip}"
    static let defaultFormatDown = "E: down"
    static let defaultFormatAlt = "{interface} {ip}"
    static let toggleIntent = "toggle_address"
    /// How often throughput and link quality are sampled when a format shows them.
    static let defaultInterval: TimeInterval = 5

    public static let placeholders = ["interface", "state", "ip", "ipv4", "ipv6", "up", "down", "quality", "ssid"]
    static let placeholderList =
        "{interface} {state} (up, down, absent) {ip} {ipv4} {ipv6} {up} {down} (bytes per second, sampled) "
        + "{quality} (Wi-Fi link quality, sampled) {ssid} (Wi-Fi network, from nl80211)"
    static let formatParameters = ["format", "format_down", "format_alt"]

    let files: SystemFiles
    public let listener: RouteListener

    public init(files: SystemFiles = .standard, listener: RouteListener = .shared) {
        self.files = files
        self.listener = listener
    }

    public func runMode(for settings: WidgetSettings) -> RunMode { RunMode(isPersistent: true) }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "E: --")
    }

    public func defaultIntent(for button: MouseButton) -> String? {
        button == .left ? Self.toggleIntent : nil
    }

    /// `{names}` in any of the three formats that this kind does not know.
    public func referenceProblems(in configuration: IntentValues) -> [ReferenceProblem] {
        Self.formatParameters.flatMap { parameter in
            PlaceholderFormat(configuration.string(parameter) ?? "").placeholders
                .filter { !Self.placeholders.contains($0) }
                .map {
                    ReferenceProblem(
                        parameter: parameter,
                        message: "unknown placeholder '{\($0)}' in '\(parameter)', which shows as typed; known: "
                            + Self.placeholders.joined(separator: ", "))
                }
        }
    }

    /// A preview or a snapshot: the state now, from a dump of its own (no throughput: that needs two samples).
    public func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        try await timeline(for: configuration, in: context).entries[0]
    }

    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        let content: EntryContent
        do {
            content = presentation(configuration, family: context.family).content(
                try RouteSocket.dump(), rates: nil, quality: nil)
        } catch {
            content = EntryContent(text: "no network state", tooltip: error.description, classes: ["absent"])
        }
        return Timeline(entries: [TimelineEntry(date: context.now, content: content)], policy: .never)
    }

    /// An `intent NAME toggle_address` line: toggles the running session's format.
    public func perform(
        _ invocation: IntentInvocation, for configuration: IntentValues, in context: ProviderContext
    ) async throws -> IntentOutcome {
        try requireDeclared(invocation)
        guard NetworkSession.toggle(instance: context.instance) else {
            throw IntentError("\(context.instance) is not running")
        }
        return IntentOutcome("\(context.instance): toggled its format", reloadsKind: false)
    }

    public func startSession(
        for configuration: IntentValues, in context: ProviderContext,
        updates: @escaping @Sendable (SessionUpdate) -> Void
    ) throws -> any ProviderSession {
        let alternate = configuration.string("format_alt") ?? Self.defaultFormatAlt
        let sampled = [configuration.string("format") ?? Self.defaultFormat, alternate].contains {
            !NetworkPresentation.sampledPlaceholders.isDisjoint(with: PlaceholderFormat($0).placeholders)
        }
        let interval = context.settings.duration("interval") ?? Self.defaultInterval
        return try NetworkSession.start(
            presentation: presentation(configuration, family: context.family),
            alternateFormat: PlaceholderFormat(alternate),
            sampleInterval: sampled ? .milliseconds(Int64((interval * 1000).rounded())) : nil, files: files,
            listener: listener, instance: context.instance, updates: updates)
    }

    func presentation(_ configuration: IntentValues, family: Family) -> NetworkPresentation {
        NetworkPresentation(
            interface: configuration.string("interface"),
            format: PlaceholderFormat(configuration.string("format") ?? Self.defaultFormat),
            formatDown: PlaceholderFormat(configuration.string("format_down") ?? Self.defaultFormatDown),
            family: family)
    }
}
