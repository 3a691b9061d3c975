import FoundationEssentials
import Kind
import Timelines

/// The volume and mute of the default sink (or source, or a device by name), from PulseAudio or PipeWire's pulse
/// server through libpulse, pushed by the server's own events through the one `PulseConnection`; a click mutes, a
/// scroll moves the volume, on that connection.
public struct SoundKind: WidgetKind {
    public let name = "sound"
    public let displayName = "Sound"
    public let summary = "The default sink's or source's volume and mute (PulseAudio, PipeWire), pushed by the server."
    public let families = SampledParameters.families
    public var showsWholeTextWithoutFamily: Bool { true }
    public let parameters = [
        ParameterSpec(
            "device", displayName: "Device", type: .string, default: .string("sink"),
            summary: "sink (the default sink), source (the default source), or a sink's or source's name"),
        SampledParameters.format(
            default: SoundPresentation.defaultFormat,
            placeholders: "{volume} {muted} {device} {description} {devicename}"),
        ParameterSpec(
            "format_muted", displayName: "Format when muted", type: .string,
            default: .string(SoundPresentation.defaultMutedFormat),
            summary: "the text while muted, with the same placeholders"),
        ParameterSpec(
            "step", displayName: "Step", type: .int(1...100), default: .int(SoundSettings.defaultStep),
            summary: "how many percent a scroll moves the volume"),
        ParameterSpec(
            "max", displayName: "Maximum", type: .int(1...200), default: .int(SoundSettings.defaultMaximum),
            summary: "the volume in percent that scrolling up stops at (above 100: amplified)"),
    ]
    public let intents = [
        IntentSpec("mute", summary: "mute or unmute the device"),
        IntentSpec("volume_up", summary: "raise the volume by `step` percent, up to `max`"),
        IntentSpec("volume_down", summary: "lower the volume by `step` percent"),
    ]

    let connection: PulseConnection
    /// How long `preview` waits for the server's first answer.
    static let previewWait: Duration = .seconds(2)

    public init(connection: PulseConnection = .shared) {
        self.connection = connection
    }

    public func runMode(for settings: WidgetSettings) -> RunMode { RunMode(isPersistent: true) }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "♪ --%")
    }

    /// Left: mute; scrolling: the volume, as pavucontrol's tray icons and waybar's pulseaudio module do.
    public func defaultIntent(for button: MouseButton) -> String? {
        switch button {
        case .left: "mute"
        case .scrollUp: "volume_up"
        case .scrollDown: "volume_down"
        default: nil
        }
    }

    public func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        try await timeline(for: configuration, in: context).entries[0]
    }

    /// The state now, for `preview`: the connection's first answer, waited for a moment.
    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        SoundSettings(configuration).timeline(
            connection.state(waitingUpTo: Self.previewWait), family: context.family, at: context.now)
    }

    public func referenceProblems(in configuration: IntentValues) -> [ReferenceProblem] {
        let list = SoundPresentation.placeholders.joined(separator: ", ")
        let known = SoundPresentation.placeholders.contains
        var problems = SampledParameters.unknownPlaceholders(in: configuration, known: known, list: list)
        let muted = PlaceholderFormat(configuration.string("format_muted") ?? "").placeholders.filter { !known($0) }
        problems += muted.map {
            ReferenceProblem(
                parameter: "format_muted",
                message: "unknown placeholder '{\($0)}' in 'format_muted', which shows as typed; known: \(list)")
        }
        return problems
    }

    public func startSession(
        for configuration: IntentValues, in context: ProviderContext,
        updates: @escaping @Sendable (SessionUpdate) -> Void
    ) throws -> any ProviderSession {
        SoundSession.start(
            on: connection, settings: SoundSettings(configuration), family: context.family, updates: updates)
    }

    /// An `intent` line (a click goes to the session instead): run on the connection; the server's event updates the
    /// widget, so nothing reloads.
    public func perform(
        _ invocation: IntentInvocation, for configuration: IntentValues, in context: ProviderContext
    ) async throws -> IntentOutcome {
        let settings = SoundSettings(configuration)
        let done = try connection.perform(
            SoundSettings.action(invocation.intent), on: settings.device, step: settings.step,
            maximum: settings.maximum)
        return IntentOutcome(done, reloadsKind: false)
    }
}
