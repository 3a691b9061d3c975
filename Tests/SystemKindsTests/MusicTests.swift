import FoundationEssentials
import Kind
import Testing
import Timelines

@testable import SystemKinds

/// The music kind's pure parts: MPRIS properties into a player, which player a widget shows, its text and the
/// position's timeline.
@Suite("music")
struct MusicTests {
    static let start = Date(timeIntervalSince1970: 1_000_000)

    static func metadata(
        title: String = "Song", artists: DBusValue = .array([.string("Band")]), length: Int64 = 200_000_000
    )
        -> DBusValue
    {
        .dictionary([
            (key: .string("xesam:title"), value: .string(title)), (key: .string("xesam:artist"), value: artists),
            (key: .string("xesam:album"), value: .string("Album")),
            (key: .string("mpris:length"), value: .integer(length)),
        ])
    }

    static func player(_ status: String = "Playing", position: Int64 = 0, name: String = "org.mpris.MediaPlayer2.vlc")
        -> MusicPlayer
    {
        var player = MusicPlayer(busName: name, owner: ":1.5", lastChange: start)
        player.apply(
            ["PlaybackStatus": .string(status), "Metadata": metadata(), "Position": .integer(position)], at: start)
        return player
    }

    @Test func metadataBecomesTheFields() {
        let player = Self.player()
        #expect(player.title == "Song" && player.artists == ["Band"] && player.album == "Album")
        #expect(player.lengthSeconds == 200 && player.status == .playing && player.name == "vlc")
        #expect(player.position(at: Self.start.addingTimeInterval(30)) == 30)
        // A lone string for the artist (some players send one), a property of the wrong type, an unknown status.
        var odd = Self.player()
        odd.apply(
            ["Metadata": Self.metadata(artists: .string("Solo"), length: -1), "PlaybackStatus": .integer(3)],
            at: Self.start)
        #expect(odd.artists == ["Solo"] && odd.lengthSeconds == nil && odd.status == .playing)
        odd.apply(["PlaybackStatus": .string("Buffering")], at: Self.start)
        #expect(odd.status == .stopped)
    }

    @Test func aPausedPlayersPositionStandsAndNeverPassesTheEnd() {
        let paused = Self.player("Paused", position: 10_000_000)
        #expect(paused.position(at: Self.start.addingTimeInterval(60)) == 10)
        let playing = Self.player(position: 190_000_000)
        #expect(playing.position(at: Self.start.addingTimeInterval(60)) == 200)
    }

    @Test func theNamedPlayerElseThePlayingOneElseTheMostRecent() {
        var vlc = Self.player("Paused")
        vlc.lastChange = Self.start.addingTimeInterval(10)
        let spotify = Self.player("Playing", name: "org.mpris.MediaPlayer2.spotify")
        var mpv = Self.player("Stopped", name: "org.mpris.MediaPlayer2.mpv.instance42")
        mpv.lastChange = Self.start.addingTimeInterval(20)
        #expect(MusicPlayer.chosen(among: [vlc, spotify, mpv], wanted: nil)?.name == "spotify")
        #expect(MusicPlayer.chosen(among: [vlc, mpv], wanted: nil)?.name == "mpv.instance42")
        #expect(MusicPlayer.chosen(among: [vlc, spotify, mpv], wanted: "mpv")?.name == "mpv.instance42")
        #expect(MusicPlayer.chosen(among: [vlc, spotify, mpv], wanted: "vl") == nil)
        #expect(MusicPlayer.chosen(among: [], wanted: nil) == nil)
    }

    static func presentation(_ format: String, stopped: String = "", wanted: String? = nil) -> MusicTimeline {
        MusicTimeline(format: PlaceholderFormat(format), formatStopped: PlaceholderFormat(stopped), wanted: wanted)
    }

    @Test func theFormatsPlaceholders() {
        let timeline = Self.presentation("{status} {artist} - {title} ({album}) {length} {player} {state}")
            .timeline(.players([Self.player()]), at: Self.start)
        #expect(timeline.entries.map(\.content.text) == ["▶ Band - Song (Album) 3:20 vlc playing"])
        #expect(timeline.policy == .never, "no {position}: no timed entries")
        #expect(timeline.entries[0].content.classes == ["playing"])
        let paused = Self.presentation("{status} {title}").timeline(.players([Self.player("Paused")]), at: Self.start)
        #expect(paused.entries.map(\.content.text) == ["‖ Song"])
        let stopped = Self.presentation("{title}", stopped: "{status} {player}")
            .timeline(.players([Self.player("Stopped")]), at: Self.start)
        #expect(stopped.entries.map(\.content.text) == ["■ vlc"])
        #expect(MusicTimeline.clock(0) == "0:00" && MusicTimeline.clock(59.9) == "0:59")
        #expect(MusicTimeline.clock(3725) == "1:02:05" && MusicTimeline.clock(.nan) == "0:00")
    }

    @Test func noPlayerAndNoBusAreStates() {
        let none = Self.presentation("{title}").timeline(.players([]), at: Self.start)
        #expect(none.entries.map(\.content.text) == [""] && none.policy == .never)
        #expect(none.entries[0].content.classes == ["absent"])
        let named = Self.presentation("{title}", stopped: "nothing{player}", wanted: "vlc")
            .timeline(.players([Self.player(name: "org.mpris.MediaPlayer2.mpv")]), at: Self.start)
        #expect(named.entries.map(\.content.text) == ["nothing"])
        #expect(named.entries[0].content.tooltip == "no MPRIS player named 'vlc' on the session bus")
        let noBus = Self.presentation("{title}").timeline(.noBus("refused"), at: Self.start)
        #expect(noBus.entries.map(\.content.text) == ["no session bus"] && noBus.policy == .never)
    }

    @Test func whilePlayingThePositionIsAMinuteOfEntriesAnchoredAtTheLastReading() throws {
        // 10.25 s in: the next second shows 0.75 s later, then one a second, for a minute.
        let player = Self.player(position: 10_250_000)
        let timeline = Self.presentation("{position}/{length}").timeline(.players([player]), at: Self.start)
        #expect(timeline.policy == .atEnd)
        #expect(timeline.entries.count == MusicTimeline.horizon + 1)
        #expect(timeline.entries.first?.content.text == "0:10/3:20")
        #expect(timeline.entries[1].date == Self.start.addingTimeInterval(0.75))
        #expect(timeline.entries[1].content.text == "0:11/3:20")
        #expect(timeline.entries[2].date == Self.start.addingTimeInterval(1.75))
        #expect(timeline.entries.last?.content.text == "1:10/3:20")
        // Near the end, the entries stop at the track's length.
        let ending = Self.presentation("{position}").timeline(
            .players([Self.player(position: 197_500_000)]), at: Self.start)
        #expect(ending.entries.map(\.content.text) == ["3:17", "3:18", "3:19", "3:20"])
        // Paused: the position stands, one entry.
        let paused = Self.presentation("{position}").timeline(
            .players([Self.player("Paused", position: 10_250_000)]), at: Self.start)
        #expect(paused.entries.count == 1 && paused.policy == .never)
    }

    /// A player's `Rate` is whatever its D-Bus peer sends: a huge finite one moves the position past any `Int`, which
    /// must show as a time, not trap the daemon.
    @Test func aPlayersAbsurdRateCannotTrapThePosition() {
        var player = Self.player(position: 1_000_000)
        player.lengthMicroseconds = nil
        player.apply(["Rate": .double(1e300)], at: Self.start)
        let later = Self.start.addingTimeInterval(1)
        #expect(player.position(at: later).map { $0 > 1e200 } == true)
        #expect(MusicTimeline.values(of: player, at: later)["position"]?.isEmpty == false)
        #expect(MusicTimeline.clock(1e300) == MusicTimeline.clock(.greatestFiniteMagnitude))
        let timeline = Self.presentation("{position}").timeline(.players([player]), at: later)
        #expect(timeline.entries.count <= MusicTimeline.horizon + 1)
    }

    @Test func theSessionBusAddressNeverAutolaunches() {
        let environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/bus", "XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(
            SessionBusAddress.resolve(environment: { environment[$0] }, socketExists: { _ in true })
                == "unix:path=/run/bus")
        let runtimeOnly = ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(
            SessionBusAddress.resolve(environment: { runtimeOnly[$0] }, socketExists: { $0 == "/run/user/1000/bus" })
                == "unix:path=/run/user/1000/bus")
        #expect(SessionBusAddress.resolve(environment: { runtimeOnly[$0] }, socketExists: { _ in false }) == nil)
        #expect(SessionBusAddress.resolve(environment: { _ in nil }, socketExists: { _ in true }) == nil)
    }

    @Test func buttonsAndIntents() {
        let kind = MusicKind()
        #expect(kind.defaultIntent(for: .left) == "play_pause")
        #expect(kind.defaultIntent(for: .right) == "next" && kind.defaultIntent(for: .scrollUp) == "next")
        #expect(kind.defaultIntent(for: .scrollDown) == "previous" && kind.defaultIntent(for: .middle) == nil)
        #expect(kind.intents.map(\.name) == ["play_pause", "next", "previous"])
        #expect(MusicSession.methods == ["play_pause": "PlayPause", "next": "Next", "previous": "Previous"])
        var configuration = kind.defaultConfiguration
        configuration["format_stopped"] = .string("{titel}")
        #expect(kind.referenceProblems(in: configuration).map(\.parameter) == ["format_stopped"])
    }
}
