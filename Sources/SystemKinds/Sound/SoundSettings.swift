import FoundationEssentials
import Kind
import Timelines

/// A sound widget's parameters, read once from its configuration.
struct SoundSettings: Sendable {
    var device: String
    var format: String?
    var mutedFormat: String?
    var step: Int
    var maximum: Int

    static let defaultStep = 5
    static let defaultMaximum = 100

    init(_ configuration: IntentValues) {
        device = configuration.string("device") ?? "sink"
        format = configuration.string("format")
        mutedFormat = configuration.string("format_muted")
        step = configuration.int("step") ?? Self.defaultStep
        maximum = configuration.int("max") ?? Self.defaultMaximum
    }

    /// One entry from `now`, until the server's next event replaces it.
    func timeline(_ state: SoundServerState?, family: Family, at now: Date) -> Timeline {
        let content = SoundPresentation.content(
            state, device: device, format: format, mutedFormat: mutedFormat, family: family)
        return Timeline(entries: [TimelineEntry(date: now, content: content)], policy: .never)
    }

    /// The action of an intent the kind declares (`SoundKind.intents`).
    static func action(_ intent: String) throws(SoundError) -> SoundAction {
        switch intent {
        case "mute": .toggleMute
        case "volume_up": .volumeUp
        case "volume_down": .volumeDown
        default: throw SoundError("kind 'sound' has no intent '\(intent)'")
        }
    }
}
