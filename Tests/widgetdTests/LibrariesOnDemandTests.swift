import Foundation
import TestSupport
import Testing

/// libpulse and libdbus are loaded by the sound and music kinds when their first widget connects, not linked: every
/// other start (each command, a daemon without those kinds) maps neither, nor the libraries under them.
@Suite("libpulse and libdbus loaded only by their kinds", .spawnsDaemons)
struct LibrariesOnDemandTests {
    /// Whether process `pid` has a file whose path contains `name` mapped now (`/proc/PID/maps`).
    static func maps(_ name: String, in pid: Int32) throws -> Bool {
        try procFile("/proc/\(pid)/maps").contains(name)
    }

    @Test func theBinaryLinksNeither() throws {
        // The loader loads every linked library at every start, before main; `LD_DEBUG=libs` has it say so.
        let version = try runWidgetd(["--version"], environment: ["LD_DEBUG": "libs"])
        #expect(version.status == 0)
        #expect(version.stderr.contains("libyaml"), "the loader named no library: \(version.stderr)")
        #expect(!version.stderr.contains("libpulse"), "\(version.stderr)")
        #expect(!version.stderr.contains("libdbus"), "\(version.stderr)")
    }

    @Test func aDaemonWithoutSoundOrMusicMapsNeither() async throws {
        let daemon = try DaemonUnderTest(config: "widgets:\n  quote:\n    kind: quotes\n")
        #expect(await daemon.waitFor("the quote's timeline") { daemon.hasTimeline("quote") })
        let pid = daemon.process.processIdentifier
        #expect(try !Self.maps("libpulse", in: pid))
        #expect(try !Self.maps("libdbus", in: pid))
    }

    /// With no server at the address: the kind loads libpulse to try it, and shows the state. (libpulse links
    /// libdbus itself.)
    @Test func aSoundWidgetLoadsLibpulse() async throws {
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  snd:\n    kind: sound\n    output: [plain]\n",
            extraEnvironment: ["PULSE_SERVER": "tcp:127.0.0.1:1"])
        #expect(
            await daemon.waitFor("the no-server state") { daemon.read("snd.plain") == "no sound server\n" },
            "\(daemon.read("snd.plain") ?? "no file")\n\(daemon.log)")
        let pid = daemon.process.processIdentifier
        #expect(try await waitFor("libpulse to be mapped") { try Self.maps("libpulse.so.0", in: pid) })
    }

    /// A bus address that is no socket to wait for: the kind loads libdbus to try it, and shows the state.
    @Test func aMusicWidgetLoadsLibdbusAlone() async throws {
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  song:\n    kind: music\n    output: [plain]\n",
            extraEnvironment: ["DBUS_SESSION_BUS_ADDRESS": "tcp:host=127.0.0.1,port=1"])
        #expect(
            await daemon.waitFor("the no-bus state") { daemon.read("song.plain") == "no session bus\n" },
            "\(daemon.read("song.plain") ?? "no file")\n\(daemon.log)")
        let pid = daemon.process.processIdentifier
        #expect(try await waitFor("libdbus to be mapped") { try Self.maps("libdbus-1.so.3", in: pid) })
        #expect(try !Self.maps("libpulse", in: pid))
    }
}
