/// A sink (an output) or a source (an input) as the sound server described it last.
public struct SoundDevice: Sendable, Hashable {
    public enum Direction: String, Sendable, Hashable {
        case sink
        case source
    }

    /// The server's name for it (`alsa_output.pci-0000_00_1f.3.analog-stereo`).
    public var name: String
    /// The name a person reads (`Built-in Audio Analog Stereo`): i3status's `%devicename`.
    public var description: String
    public var direction: Direction
    public var volume: SoundVolume
    public var muted: Bool

    public init(name: String, description: String, direction: Direction, volume: SoundVolume, muted: Bool) {
        self.name = name
        self.description = description
        self.direction = direction
        self.volume = volume
        self.muted = muted
    }
}

/// What the sound server looks like now, or why there is none.
public enum SoundServerState: Sendable, Hashable {
    /// Connected: its default sink and source and every sink and source, in the server's order.
    case connected(defaultSink: String?, defaultSource: String?, devices: [SoundDevice])
    /// No server answers (none runs, or it went away); the reason is libpulse's, for the tooltip.
    case noServer(reason: String)

    /// The device a widget's `device:` names: `sink` the default sink, `source` the default source, else a sink or
    /// source of that name (a sink first, as the names may repeat across the two).
    public func device(_ selector: String) -> SoundDevice? {
        guard case .connected(let defaultSink, let defaultSource, let devices) = self else { return nil }
        switch selector {
        case "sink": return devices.first { $0.direction == .sink && $0.name == defaultSink }
        case "source": return devices.first { $0.direction == .source && $0.name == defaultSource }
        default:
            return devices.first { $0.direction == .sink && $0.name == selector }
                ?? devices.first { $0.direction == .source && $0.name == selector }
        }
    }
}
