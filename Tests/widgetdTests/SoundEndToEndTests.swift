import Foundation
import TestSupport
import Testing

/// The sound kind in a running daemon against a real PulseAudio server the test starts (`PulseServer`): what `pactl`
/// changes is pushed by the server's subscription, a click runs its intent on the daemon's connection, i3status's
/// `volume` module on the same server shows the same (and so does the widget `widgetd import i3status` makes of it), and
/// a machine without a server shows it as a state.
@Suite("sound through the daemon", .spawnsDaemons)
struct SoundEndToEndTests {
    static let config = """
        widgets:
          snd:
            kind: sound
            output: [plain]
            intent: {format: "{volume} {description}", format_muted: "M {volume}"}

        """

    @Test(.aheadInLine) func pactlsChangesArePushedAClickMutesAndI3statusAgrees() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let server = try await PulseServer(in: scratch.url.path)
        defer { server.stop() }
        #expect(try server.pactl(["set-sink-volume", "@DEFAULT_SINK@", "50%"]).status == 0)
        let daemon = try DaemonUnderTest(config: Self.config, extraEnvironment: server.environment)
        defer { daemon.stop() }
        #expect(
            await daemon.waitFor("the sink's volume") { daemon.read("snd.plain") == "50% Null Output\n" },
            "\(daemon.read("snd.plain") ?? "no file")\n\(daemon.log)")

        // Nothing re-reads the server on a timer (the timeline's policy is never): only its event can show this.
        #expect(try server.pactl(["set-sink-volume", "@DEFAULT_SINK@", "37%"]).status == 0)
        #expect(
            await daemon.waitFor("the new volume", timeout: .seconds(5)) {
                daemon.read("snd.plain") == "37% Null Output\n"
            }, "\(daemon.read("snd.plain") ?? "no file")\n\(daemon.log)")
        #expect(try await i3statusVolume(server) == "V 37% Null Output")

        #expect(try server.pactl(["set-sink-mute", "@DEFAULT_SINK@", "1"]).status == 0)
        #expect(await daemon.waitFor("muted") { daemon.read("snd.plain") == "M 37%\n" })
        #expect(try await i3statusVolume(server) == "M 37%")

        // A left click unmutes, on the daemon's own connection.
        #expect(try await daemon.cli(["click", "snd", "--wait"]).status == 0)
        #expect(await daemon.waitFor("unmuted by the click") { daemon.read("snd.plain") == "37% Null Output\n" })
        #expect(try server.pactl(["get-sink-mute", "@DEFAULT_SINK@"]).stdout == "Mute: no\n")
        // Scrolling up twice steps twice, even before the server's first event answers.
        #expect(try await daemon.cli(["click", "snd", "--button", "4", "--wait"]).status == 0)
        #expect(try await daemon.cli(["click", "snd", "--button", "4", "--wait"]).status == 0)
        #expect(await daemon.waitFor("two steps up") { daemon.read("snd.plain") == "47% Null Output\n" })
        #expect(try server.pactl(["get-sink-volume", "@DEFAULT_SINK@"]).stdout.contains("/  47% /"))
        #expect(try await i3statusVolume(server) == "V 47% Null Output")
    }

    /// With no server, the connection's thread sleeps until the server's socket appears (issue 36: a pushed kind adds no
    /// wake-up while nothing changes), then connects at once. The socket's directory is made only just before the
    /// server starts, as a login makes `$XDG_RUNTIME_DIR/pulse`.
    @Test(.aheadInLine) func noServerIsAStateWaitedForWithoutWakingAndTheServerIsFoundWhenItComes() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let socket = scratch.url.path + "/pulse/native"
        let daemon = try DaemonUnderTest(config: Self.config, extraEnvironment: ["PULSE_SERVER": "unix:" + socket])
        defer { daemon.stop() }
        #expect(
            await daemon.waitFor("the no-server state") { daemon.read("snd.plain") == "no sound server\n" },
            "\(daemon.read("snd.plain") ?? "no file")\n\(daemon.log)")
        // A timed retry would come 1 and 3 s after the first attempt.
        try await expectNoWakeUps(ofThread: "widgetd-pulse", in: daemon.process.processIdentifier, for: .seconds(3))

        try FileManager.default.createDirectory(
            atPath: scratch.url.path + "/pulse", withIntermediateDirectories: true)
        let server = try await PulseServer(in: scratch.url.path + "/pulse", socket: socket)
        defer { server.stop() }
        // The socket is heard as it is made; a server that refuses until it listens is tried again after 1 s.
        #expect(
            await daemon.waitFor("the server that came", timeout: .seconds(3)) {
                daemon.read("snd.plain") == "100% Null Output\n"
            }, "\(daemon.read("snd.plain") ?? "no file")\n\(daemon.log)")
        let lines = daemon.log.split(separator: "\n").filter { $0.contains("snd") }
        #expect(lines.count < 10, "the widget's log lines: \(lines.joined(separator: "\n"))")
    }

    /// `widgetd import i3status` on a config with a `volume master` module, the result run on the server i3status
    /// reads with that same config: the same text while playing, and while muted in i3status's default
    /// `format_muted` (`♪: 0%%`, whose `%%` i3status prints as `%`).
    @Test(.aheadInLine) func anImportedVolumeModuleShowsWhatI3statusShows() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let server = try await PulseServer(in: scratch.url.path)
        defer { server.stop() }
        #expect(try server.pactl(["set-sink-volume", "@DEFAULT_SINK@", "42%"]).status == 0)
        let i3statusConfig = try scratch.write(
            "i3status.conf",
            """
            general {
                output_format = "none"
                interval = 1
            }
            order += "volume master"
            volume master {
                format = "♪ %devicename: %volume"
                device = "pulse"
            }

            """)
        let imported = try runWidgetd(["import", "i3status", i3statusConfig])
        #expect(imported.status == 0, "\(imported.stderr)")
        let check = try runWidgetd(["check", "--config", try scratch.write("widgets.yaml", imported.stdout)])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let daemon = try DaemonUnderTest(config: imported.stdout, extraEnvironment: server.environment)
        defer { daemon.stop() }

        let playing = try await i3statusLine(server, config: i3statusConfig)
        #expect(playing == "♪ Null Output: 42%", "i3status reads the test's server")
        #expect(
            await daemon.waitFor("i3status's line") { daemon.barTexts("i3status")["volume"] == playing },
            "ours: \(daemon.barTexts("i3status"))\n\(imported.stdout)\n\(daemon.log)")

        #expect(try server.pactl(["set-sink-mute", "@DEFAULT_SINK@", "1"]).status == 0)
        let muted = try await i3statusLine(server, config: i3statusConfig)
        #expect(muted == "♪: 0%")
        #expect(
            await daemon.waitFor("i3status's muted line") { daemon.barTexts("i3status")["volume"] == muted },
            "ours: \(daemon.barTexts("i3status"))")
    }

    /// The line i3status's `volume` module prints for the server's default sink, after its first (which it prints
    /// before pulse has answered).
    func i3statusVolume(_ server: PulseServer) async throws -> String {
        let config = server.directory + "/i3status.conf"
        try """
        general {
            output_format = "none"
            interval = 1
        }
        order += "volume master"
        volume master {
            format = "V %volume %devicename"
            format_muted = "M %volume"
            device = "pulse"
        }

        """.write(toFile: config, atomically: true, encoding: .utf8)
        return try await i3statusLine(server, config: config)
    }

    /// i3status's second line for `config` against `server` (its first it prints before pulse has answered).
    func i3statusLine(_ server: PulseServer, config: String) async throws -> String {
        let i3status = try requireExecutable("i3status", package: "i3status")
        let output = config + ".out"
        FileManager.default.createFile(atPath: output, contents: nil)
        // `stdbuf -oL`: i3status writes through stdio, which holds its lines back while the output is a file.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
        process.arguments = ["-oL", i3status, "-c", config]
        process.environment = server.environment.merging(["PATH": "/usr/bin:/bin", "HOME": server.directory]) { $1 }
        let outputFile = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardOutput = outputFile
        process.standardError = FileHandle.nullDevice
        let end = ProcessEnd(of: process)
        try process.run(thenClosing: outputFile)
        // SIGKILL: the test process's children start with SIGTERM blocked, as it has it.
        defer {
            kill(process.processIdentifier, SIGKILL)
            end.waitBlocking()
        }
        var lines: [Substring] = []
        _ = await waitFor(
            "i3status's second line", watching: URL(fileURLWithPath: output).deletingLastPathComponent().path
        ) {
            lines = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n")
            return lines.count >= 2
        }
        return lines.count >= 2 ? String(lines[1]) : ""
    }
}
