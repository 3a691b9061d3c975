import Testing

@testable import SystemKinds

/// Where the sound connection waits for a server that is not running: the local sockets libpulse would connect to,
/// from the same environment; anything else is tried on the timer. The wait itself, against a server started later,
/// is in widgetdTests (`SoundEndToEndTests`).
@Suite("sound: waiting for the server")
struct SoundServerWaitTests {
    static func paths(_ environment: [String: String]) -> [String]? {
        PulseServerAddress.socketPaths { environment[$0] }
    }

    @Test func withoutPulseServerItIsNativeInLibpulsesRuntimeDirectory() {
        let runtime = "/run/user/1000"
        #expect(Self.paths(["XDG_RUNTIME_DIR": runtime]) == ["/run/user/1000/pulse/native"])
        #expect(
            Self.paths(["XDG_RUNTIME_DIR": runtime, "PULSE_RUNTIME_PATH": "/tmp/pulse-x/"]) == ["/tmp/pulse-x/native"])
        // libpulse's fallback under $HOME names the machine id, and an empty or relative directory is none.
        #expect(Self.paths([:]) == nil)
        #expect(Self.paths(["XDG_RUNTIME_DIR": ""]) == nil)
        #expect(Self.paths(["XDG_RUNTIME_DIR": runtime, "PULSE_RUNTIME_PATH": ""]) == nil)
        #expect(Self.paths(["PULSE_RUNTIME_PATH": "pulse"]) == nil)
    }

    @Test func pulseServerIsWaitedForOnlyWhenItNamesLocalSockets() {
        let runtime = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(Self.paths(runtime.merging(["PULSE_SERVER": "unix:/tmp/a/native"]) { $1 }) == ["/tmp/a/native"])
        #expect(Self.paths(["PULSE_SERVER": "/tmp/a//native"]) == ["/tmp/a/native"])
        #expect(Self.paths(["PULSE_SERVER": " unix:/a/native\t/b/native "]) == ["/a/native", "/b/native"])
        for remote in [
            "tcp:localhost", "tcp4:127.0.0.1:4713", "myhost", "unix:/a/native tcp:host", "{0123abcd}unix:/a/native",
            "unix:native", "unix:/a/../native", "", " ",
        ] {
            #expect(Self.paths(runtime.merging(["PULSE_SERVER": remote]) { $1 }) == nil, "\(remote)")
        }
    }
}
