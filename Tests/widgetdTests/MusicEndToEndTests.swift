import Foundation
import TestSupport
import Testing

/// The music kind in a running daemon, on a session bus the test starts, with a test MPRIS player on it: what the
/// player announces by D-Bus signals reaches the bar file, clicks reach the player, and a player or a bus that goes
/// away is a state on the widget.
@Suite("music through the daemon", .spawnsDaemons)
struct MusicEndToEndTests {
    /// A scratch directory holding the bus, the player's files and the daemon's.
    struct Setup {
        let directory: TemporaryDirectory
        let bus: TestSessionBus
        let player: TestMPRISPlayer
        let daemon: DaemonUnderTest
    }

    static func start(_ widget: String, firstTrack: String = "track Song A|Band|Album|200") async throws -> Setup {
        let directory = try TemporaryDirectory()
        let bus = try await TestSessionBus(in: directory.url.path)
        let player = try await TestMPRISPlayer(on: bus, in: directory.url.path)
        player.send(firstTrack)
        player.send("status Playing")
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  song:\n    kind: music\n    output: [plain]\n" + widget, reusing: directory,
            extraEnvironment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        return Setup(directory: directory, bus: bus, player: player, daemon: daemon)
    }

    @Test func aTrackChangeEmittedByThePlayerIsShownWithinADeadline() async throws {
        let setup = try await Self.start("")
        defer { setup.directory.remove() }
        let daemon = setup.daemon
        #expect(
            await daemon.waitFor("the first track") { daemon.read("song.plain") == "▶ Band - Song A\n" },
            "\(daemon.read("song.plain") ?? "no file")\n\(daemon.log)")
        setup.player.send("track Song B|Band|Album|180")
        #expect(
            await daemon.waitFor("the track change", timeout: .seconds(5)) {
                daemon.read("song.plain") == "▶ Band - Song B\n"
            }, "\(daemon.read("song.plain") ?? "no file")\n\(daemon.log)")
    }

    @Test func clicksCallThePlayersPlayPauseAndNext() async throws {
        let setup = try await Self.start("")
        defer { setup.directory.remove() }
        let daemon = setup.daemon
        let player = setup.player
        #expect(await daemon.waitFor("the playing track") { daemon.read("song.plain") == "▶ Band - Song A\n" })
        let click = try await daemon.cli(["click", "song", "--wait"])
        #expect(click.status == 0, "\(click.stdout)\(click.stderr)")
        #expect(await daemon.waitFor("PlayPause at the player") { player.calls == ["PlayPause"] }, "\(player.calls)")
        // The player paused, and said so: the widget shows it.
        #expect(
            await daemon.waitFor("the paused track") { daemon.read("song.plain") == "‖ Band - Song A\n" },
            "\(daemon.read("song.plain") ?? "no file")\n\(daemon.log)")
        let scroll = try await daemon.cli(["click", "song", "--button", "4", "--wait"])
        #expect(scroll.status == 0, "\(scroll.stdout)\(scroll.stderr)")
        #expect(
            await daemon.waitFor("Next at the player") { player.calls == ["PlayPause", "Next"] }, "\(player.calls)")
        let down = try await daemon.cli(["click", "song", "--button", "5", "--wait"])
        #expect(down.status == 0, "\(down.stdout)\(down.stderr)")
        #expect(
            await daemon.waitFor("Previous at the player") { player.calls == ["PlayPause", "Next", "Previous"] },
            "\(player.calls)")
    }

    @Test func aPlayerThatGoesShowsFormatStoppedAndABusThatGoesShowsNoSessionBus() async throws {
        let setup = try await Self.start("    intent: {format_stopped: \"nothing plays\"}\n")
        defer { setup.directory.remove() }
        let daemon = setup.daemon
        #expect(await daemon.waitFor("the playing track") { daemon.read("song.plain") == "▶ Band - Song A\n" })
        setup.player.send("quit")
        #expect(
            await daemon.waitFor("the no-player state") { daemon.read("song.plain") == "nothing plays\n" },
            "\(daemon.read("song.plain") ?? "no file")\n\(daemon.log)")
        setup.bus.stop()
        #expect(
            await daemon.waitFor("the no-bus state") { daemon.read("song.plain") == "no session bus\n" },
            "\(daemon.read("song.plain") ?? "no file")\n\(daemon.log)")
    }

    /// A bus that comes back at the same address is joined again without a restart of the widget, showing `no session
    /// bus` meanwhile: the killed bus's socket is still there, so the listener tries it after 1, 2, 4 … s, and it
    /// tries at once when the new bus makes its socket.
    @Test(.aheadInLine) func aSessionBusThatComesBackIsJoinedAgain() async throws {
        let setup = try await Self.start("")
        defer { setup.directory.remove() }
        let daemon = setup.daemon
        #expect(await daemon.waitFor("the playing track") { daemon.read("song.plain") == "▶ Band - Song A\n" })
        setup.player.stop()
        setup.bus.stop()
        #expect(
            await daemon.waitFor("the no-bus state") { daemon.read("song.plain") == "no session bus\n" },
            "\(daemon.read("song.plain") ?? "no file")\n\(daemon.log)")
        // The killed bus leaves its socket file: removed, so that the new bus's is what the start waits for.
        try FileManager.default.removeItem(atPath: setup.bus.socket)
        let bus = try await TestSessionBus(in: setup.directory.url.path)
        #expect(bus.address == setup.bus.address)
        let player = try await TestMPRISPlayer(on: bus, in: setup.directory.url.path, name: "secondplayer")
        player.send("track Song B|Band|Album|200")
        player.send("status Playing")
        // The new socket is heard at once; the bus may refuse until it listens, and is tried again after 1 s.
        #expect(
            await daemon.waitFor("the player on the bus that came back", timeout: .seconds(20)) {
                daemon.read("song.plain") == "▶ Band - Song B\n"
            }, "\(daemon.read("song.plain") ?? "no file")\n\(daemon.log)")
    }

    /// With no bus at its address, the music thread sleeps until the bus's socket appears (issue 36: a pushed kind adds
    /// no wake-up while nothing changes), then joins it at once; `subdirectory`: the socket's directory, made only just
    /// before the bus starts.
    func waitsForAMissingBusWithoutWaking(subdirectory: String?) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let busDirectory = directory.url.path + (subdirectory.map { "/" + $0 } ?? "")
        let address = "unix:path=" + busDirectory + "/session-bus"
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  song:\n    kind: music\n    output: [plain]\n", reusing: directory,
            extraEnvironment: ["DBUS_SESSION_BUS_ADDRESS": address])
        #expect(
            await daemon.waitFor("the no-bus state") { daemon.read("song.plain") == "no session bus\n" },
            "\(daemon.read("song.plain") ?? "no file")\n\(daemon.log)")
        // A timed retry would come 1 and 3 s after the first attempt.
        try await expectNoWakeUps(ofThread: "widgetd-mpris", in: daemon.process.processIdentifier, for: .seconds(3))

        if subdirectory != nil {
            try FileManager.default.createDirectory(atPath: busDirectory, withIntermediateDirectories: false)
        }
        let bus = try await TestSessionBus(in: busDirectory)
        #expect(bus.address == address)
        let player = try await TestMPRISPlayer(on: bus, in: directory.url.path)
        player.send("track Song A|Band|Album|200")
        player.send("status Playing")
        #expect(
            await daemon.waitFor("the player on the bus that started", timeout: .seconds(3)) {
                daemon.read("song.plain") == "▶ Band - Song A\n"
            }, "\(daemon.read("song.plain") ?? "no file")\n\(daemon.log)")
    }

    @Test(.aheadInLine) func aMissingBusIsWaitedForWithoutWakingAndJoinedWhenItStarts() async throws {
        try await waitsForAMissingBusWithoutWaking(subdirectory: nil)
    }

    @Test(.aheadInLine) func aMissingBusInADirectoryNotMadeYetIsWaitedForTheSameWay() async throws {
        try await waitsForAMissingBusWithoutWaking(subdirectory: "bus-directory")
    }

    @Test func noSessionBusIsAStateOnTheWidget() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  song:\n    kind: music\n    output: [plain]\n", reusing: directory,
            extraEnvironment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + directory.url.path + "/no-bus-here"])
        #expect(
            await daemon.waitFor("the no-bus state") { daemon.read("song.plain") == "no session bus\n" },
            "\(daemon.read("song.plain") ?? "no file")\n\(daemon.log)")
    }

    /// The position counts on by the timeline's entries, and a seek re-anchors it.
    @Test func thePositionCountsOnAndASeekMovesIt() async throws {
        let setup = try await Self.start("    intent: {format: \"{position}/{length}\"}\n")
        defer { setup.directory.remove() }
        let daemon = setup.daemon
        #expect(await daemon.waitFor("the first position") { daemon.read("song.plain")?.hasSuffix("/3:20\n") == true })
        // Each second shows for a second only: what the file showed is recorded as it is written, since this task
        // can resume later than that on a busy machine.
        let shown = try FileVersions(of: "song.plain", in: daemon.output)
        setup.player.send("seek 100")
        #expect(
            await daemon.waitFor("the seeked position") { shown.texts.contains("1:40/3:20\n") },
            "\(shown.texts)\n\(daemon.log)")
        #expect(
            await daemon.waitFor("the next second, from the timeline") {
                shown.showed("1:40/3:20\n", then: "1:41/3:20\n")
            }, "\(shown.texts)\n\(daemon.log)")
    }

    /// `import i3blocks` names the music kind beside a block running i3blocks-contrib's mediaplayer, and keeps it.
    @Test func importI3blocksNamesMusicForTheMediaplayerScript() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configPath = try directory.write(
            "i3blocks.config", "[mediaplayer]\ncommand=$SCRIPT_DIR/mediaplayer\ninterval=5\nsignal=10\n")
        let imported = try runWidgetd(["import", "i3blocks", configPath])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stdout.contains("runs i3blocks-contrib's mediaplayer: kind music replaces it"),
            "\(imported.stdout)")
        #expect(imported.stdout.contains("kind: exec"), "\(imported.stdout)")
    }
}
