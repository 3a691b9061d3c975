/// What a sound widget's intent does.
public enum SoundAction: Sendable, Hashable {
    case toggleMute
    case volumeUp
    case volumeDown
}

/// Why a sound intent could not run.
public struct SoundError: Error, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
