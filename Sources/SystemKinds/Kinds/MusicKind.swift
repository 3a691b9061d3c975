import FoundationEssentials
import Kind
import Timelines

/// What an MPRIS player on the session bus plays (title, artist, state, position), pushed by its D-Bus signals: a
/// session per widget subscribes to the process's one bus connection (`MPRISListener`). Clicks play, pause and skip.
///
/// With no player, the widget shows `format_stopped` (empty by default, so bars hide it, as i3blocks' mediaplayer and
/// waybar's mpris do); with no session bus, "no session bus", and the bus is tried again when its socket appears (or
/// on a timer where that cannot be watched: `MPRISListener`). Neither is logged.
public struct MusicKind: WidgetKind {
    public let name = "music"
    public let displayName = "Music"
    public let summary = "What an MPRIS player plays (title, artist, state, position), pushed by D-Bus signals."
    public let families = SampledParameters.families
    public var showsWholeTextWithoutFamily: Bool { true }
    public let parameters = [
        ParameterSpec(
            "player", displayName: "Player", type: .string,
            summary: "an MPRIS name (vlc, spotify); absent: the playing player, else the most recent"),
        SampledParameters.format(
            default: Self.defaultFormat,
            placeholders: "{title} {artist} {album} {status} (▶ ‖ ■) {state} {position} {length} {player}"),
        ParameterSpec(
            "format_stopped", displayName: "Format when stopped", type: .string, default: .string(""),
            summary: "the text when the player is stopped or there is none (same placeholders); empty hides it"),
    ]
    public let intents = [
        IntentSpec("play_pause", summary: "play or pause the player shown (MPRIS PlayPause)"),
        IntentSpec("next", summary: "the next track (MPRIS Next)"),
        IntentSpec("previous", summary: "the previous track (MPRIS Previous)"),
    ]

    static let defaultFormat = "{status} {artist} - {title}"

    let listener: MPRISListener

    public init(listener: MPRISListener = .shared) {
        self.listener = listener
    }

    public func runMode(for settings: WidgetSettings) -> RunMode { RunMode(isPersistent: true) }

    /// Left plays or pauses; scrolling up or a right click skips to the next track, scrolling down to the previous.
    public func defaultIntent(for button: MouseButton) -> String? {
        switch button {
        case .left: "play_pause"
        case .right, .scrollUp: "next"
        case .scrollDown: "previous"
        case .middle: nil
        }
    }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "♪")
    }

    func presentation(_ configuration: IntentValues) -> MusicTimeline {
        MusicTimeline(
            format: PlaceholderFormat(configuration.string("format") ?? Self.defaultFormat),
            formatStopped: PlaceholderFormat(configuration.string("format_stopped") ?? ""),
            wanted: configuration.string("player"))
    }

    /// The bus read once, on the caller's thread, for `preview`: a connection of its own, closed after.
    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        let state: MusicBusState
        switch MPRISClient.connect() {
        case .success(let connection):
            state = .players(
                MPRISClient.players(on: connection, at: context.now).values.sorted { $0.busName < $1.busName })
        case .failure(let error):
            state = .noBus(error.description)
        }
        return presentation(configuration).timeline(state, at: context.now)
    }

    public func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        try await timeline(for: configuration, in: context).entries[0]
    }

    public func referenceProblems(in configuration: IntentValues) -> [ReferenceProblem] {
        let list = MusicTimeline.placeholders.joined(separator: ", ")
        return ["format", "format_stopped"].flatMap { parameter in
            PlaceholderFormat(configuration.string(parameter) ?? "").placeholders
                .filter { !MusicTimeline.placeholders.contains($0) }
                .map {
                    ReferenceProblem(
                        parameter: parameter,
                        message: "unknown placeholder '{\($0)}' in '\(parameter)', which shows as typed; known: \(list)"
                    )
                }
        }
    }

    public func startSession(
        for configuration: IntentValues, in context: ProviderContext,
        updates: @escaping @Sendable (SessionUpdate) -> Void
    ) throws -> any ProviderSession {
        try MusicSession.start(on: listener, presentation: presentation(configuration), updates: updates)
    }
}
