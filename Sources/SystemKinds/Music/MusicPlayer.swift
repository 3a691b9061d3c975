import FoundationEssentials

/// What one MPRIS player on the session bus is doing, as its properties said: pure, built from `DBusValue`s, so the
/// kind's formatting is tested without a bus.
public struct MusicPlayer: Sendable, Equatable {
    /// MPRIS's `PlaybackStatus`.
    public enum Status: String, Sendable {
        case playing = "Playing"
        case paused = "Paused"
        case stopped = "Stopped"

        /// The glyph `{status}` shows: each is in DejaVu Sans (U+25B6, U+2016, U+25A0). The pause sign U+23F8 is not,
        /// and would be a box on most bars.
        public var glyph: String {
            switch self {
            case .playing: "▶"
            case .paused: "‖"
            case .stopped: "■"
            }
        }

        /// `{state}`: the status in lower case.
        public var word: String { rawValue.lowercased() }
    }

    /// The player's bus name, `org.mpris.MediaPlayer2.vlc` or `org.mpris.MediaPlayer2.vlc.instance42`.
    public var busName: String
    /// The unique name that owns `busName` (`:1.42`): signals come from it, not from the well-known name.
    public var owner: String
    public var status: Status = .stopped
    public var title = ""
    public var artists: [String] = []
    public var album = ""
    /// `mpris:length`, in microseconds.
    public var lengthMicroseconds: Int64?
    /// The last `Position` read or `Seeked` to, in microseconds, and when: while playing, the position moves on from
    /// there at the player's rate.
    public var positionMicroseconds: Int64?
    public var positionRead: Date?
    /// `Rate`, 1 unless the player says otherwise.
    public var rate = 1.0
    /// When it last changed (started, a property, a seek): with no player named, the most recent one is shown.
    public var lastChange: Date

    public init(busName: String, owner: String, lastChange: Date) {
        self.busName = busName
        self.owner = owner
        self.lastChange = lastChange
    }

    static let busNamePrefix = "org.mpris.MediaPlayer2."

    /// `{player}`: the bus name after `org.mpris.MediaPlayer2.` (`vlc`, `vlc.instance42`).
    public var name: String {
        busName.hasPrefix(Self.busNamePrefix) ? String(busName.dropFirst(Self.busNamePrefix.count)) : busName
    }

    /// Whether `player:` names this one: its whole name, or the part before an instance suffix (`vlc` for
    /// `vlc.instance42`, as MPRIS lets a player run several instances).
    public func isNamed(_ wanted: String) -> Bool {
        name == wanted || name.hasPrefix(wanted + ".")
    }

    /// Takes in properties of `org.mpris.MediaPlayer2.Player` (a `GetAll` answer or a `PropertiesChanged` signal's
    /// changed ones) read at `now`. A value of the wrong type is left out: a player that sends one shows the rest.
    public mutating func apply(_ properties: [String: DBusValue], at now: Date) {
        if let status = properties["PlaybackStatus"]?.string {
            self.status = Status(rawValue: status) ?? .stopped
        }
        if let metadata = properties["Metadata"]?.stringKeyed {
            title = metadata["xesam:title"]?.string ?? ""
            artists = metadata["xesam:artist"]?.strings ?? []
            album = metadata["xesam:album"]?.string ?? ""
            lengthMicroseconds = metadata["mpris:length"]?.integer.flatMap { $0 > 0 ? $0 : nil }
        }
        if let rate = properties["Rate"], case .double(let value) = rate, value.isFinite, value >= 0 {
            self.rate = value
        }
        if let position = properties["Position"]?.integer {
            seek(to: position, at: now)
        }
        lastChange = now
    }

    /// A position read or a `Seeked` signal.
    public mutating func seek(to microseconds: Int64, at now: Date) {
        positionMicroseconds = max(0, microseconds)
        positionRead = now
        lastChange = now
    }

    /// The position at `date`, in seconds: the last one read, moved on at the rate while playing, never past the
    /// track's length.
    public func position(at date: Date) -> Double? {
        guard let microseconds = positionMicroseconds, let read = positionRead else { return nil }
        var seconds = Double(microseconds) / 1_000_000
        if status == .playing { seconds += max(0, date.timeIntervalSince(read)) * rate }
        if let length = lengthSeconds { seconds = min(seconds, length) }
        return seconds
    }

    public var lengthSeconds: Double? { lengthMicroseconds.map { Double($0) / 1_000_000 } }

    /// The player a widget shows among `players`: the one `wanted` names (the most recent of several), else the most
    /// recent playing one, else the most recent of all; nil when there is none.
    public static func chosen(among players: [MusicPlayer], wanted: String?) -> MusicPlayer? {
        let candidates = wanted.map { name in players.filter { $0.isNamed(name) } } ?? players
        let playing = candidates.filter { $0.status == .playing }
        return (playing.isEmpty ? candidates : playing).max { $0.lastChange < $1.lastChange }
    }
}
