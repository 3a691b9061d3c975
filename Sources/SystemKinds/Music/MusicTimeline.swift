import Basics
import FoundationEssentials
import Kind
import Timelines

/// A music widget's entries from what the bus said: one entry, or, while a track plays and the format shows
/// `{position}`, one per second of the position for the next minute (to the track's end), so the scheduler swaps them
/// in with nothing woken per second; the next signal, or the minute's end, anchors a new run.
struct MusicTimeline {
    var format: PlaceholderFormat
    /// The text while the chosen player is stopped, or when there is none.
    var formatStopped: PlaceholderFormat
    /// `player:`: the player to show, by name; nil for the playing one, else the most recent.
    var wanted: String?

    /// Entries of one run of the position: a minute.
    static let horizon = 60

    static let placeholders = ["title", "artist", "album", "status", "state", "position", "length", "player"]

    func timeline(_ state: MusicBusState, at now: Date) -> Timeline {
        let player: MusicPlayer
        switch state {
        case .noBus(let reason):
            let content = EntryContent(
                text: "no session bus", tooltip: "music: no D-Bus session bus: \(reason)", classes: ["absent"])
            return Timeline(entries: [TimelineEntry(date: now, content: content)], policy: .never)
        case .players(let players):
            guard let chosen = MusicPlayer.chosen(among: players, wanted: wanted) else {
                let tooltip =
                    wanted.map { "no MPRIS player named '\($0)' on the session bus" }
                    ?? "no MPRIS player on the session bus"
                let content = EntryContent(
                    text: formatStopped.render(Self.emptyValues).trimmingSpaces(), tooltip: tooltip,
                    classes: ["absent"])
                return Timeline(entries: [TimelineEntry(date: now, content: content)], policy: .never)
            }
            player = chosen
        }
        var entries = [TimelineEntry(date: now, content: content(player, at: now))]
        guard player.status == .playing, format.placeholders.contains("position"), player.rate > 0,
            let position = player.position(at: now)
        else { return Timeline(entries: entries, policy: .never) }
        // The shown second changes when the position passes a whole second: first after what is left of this one,
        // then every second (of the player's rate), up to the minute's or the track's end.
        var second = position.rounded(.down) + 1
        while entries.count <= Self.horizon, player.lengthSeconds.map({ second <= $0 }) ?? true {
            let date = now.addingTimeInterval((second - position) / player.rate)
            entries.append(TimelineEntry(date: date, content: content(player, at: date)))
            second += 1
        }
        return Timeline(entries: entries, policy: .atEnd)
    }

    /// The most seconds `clock` writes.
    static let longest: Double = 1e15

    /// The values of a missing player: every placeholder empty.
    static let emptyValues = Dictionary(uniqueKeysWithValues: placeholders.map { ($0, "") })

    /// The entry for `player` at `date`; waybar gets its state (`playing`, `paused`, `stopped`) as the class.
    func content(_ player: MusicPlayer, at date: Date) -> EntryContent {
        let values = Self.values(of: player, at: date)
        let shown = player.status == .stopped ? formatStopped : format
        var tooltip = "\(player.name): \(player.status.word)"
        let track = [values["artist"]!, values["title"]!].filter { !$0.isEmpty }.joined(separator: " - ")
        if !track.isEmpty { tooltip += ", " + track }
        if !player.album.isEmpty { tooltip += " (\(player.album))" }
        return EntryContent(
            text: shown.render(values).trimmingSpaces(), tooltip: tooltip, classes: [player.status.word])
    }

    /// The placeholders' values for `player` at `date`.
    static func values(of player: MusicPlayer, at date: Date) -> [String: String] {
        [
            "title": player.title, "artist": player.artists.joined(separator: ", "), "album": player.album,
            "status": player.status.glyph, "state": player.status.word, "player": player.name,
            "position": player.position(at: date).map(clock) ?? "",
            "length": player.lengthSeconds.map(clock) ?? "",
        ]
    }

    /// `m:ss`, or `h:mm:ss` from an hour on, as players show a track's time; rounded down. The seconds come from a
    /// D-Bus peer's `Position` and `Rate`: past `longest` (about 31 million years) they show as `longest`, since
    /// converting a larger `Double` to `Int` traps.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(min(max(0, seconds.isFinite ? seconds : 0), Self.longest))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        let secondsText = (rest < 10 ? "0" : "") + String(rest)
        guard hours > 0 else { return String(whole / 60) + ":" + secondsText }
        return String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes) + ":" + secondsText
    }
}
