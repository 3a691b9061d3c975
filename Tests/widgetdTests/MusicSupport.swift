import Foundation
import TestSupport
import Testing

/// A session bus of the test's own: `dbus-daemon` with a config in the test's directory, listening on a socket there.
final class TestSessionBus {
    private let process = Process()
    private let end: ProcessEnd
    let socket: String
    /// `DBUS_SESSION_BUS_ADDRESS` for it.
    var address: String { "unix:path=" + socket }

    init(in directory: String) async throws {
        let dbusDaemon = try requireExecutable("dbus-daemon", package: "dbus-daemon")
        socket = directory + "/session-bus"
        let config = directory + "/session-bus.conf"
        try writeFile(
            """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>

            """, to: config)
        end = ProcessEnd(of: process)
        process.executableURL = URL(fileURLWithPath: dbusDaemon)
        process.arguments = ["--config-file=" + config, "--nofork", "--nopidfile"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let socket = socket
        _ = await waitFor("the session bus's socket", watching: directory) {
            FileManager.default.fileExists(atPath: socket)
        }
    }

    deinit { stop() }

    /// Ends the bus, as a session that closes does. SIGKILL: the test process's threads block SIGTERM, and a child
    /// started by Foundation's `Process` inherits that mask, so dbus-daemon would never see a SIGTERM.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            end.waitBlocking()
        }
    }
}

/// The test MPRIS player (`MusicPlayer/mpris-test-player.py`) on a `TestSessionBus`: owns
/// `org.mpris.MediaPlayer2.<name>`, changes track and status when told, and records the calls it receives.
final class TestMPRISPlayer {
    private let process = Process()
    private let end: ProcessEnd
    private let input = Pipe()
    let callsFile: String

    /// Starts it and waits until it owns its name; its files go in `directory`.
    init(on bus: TestSessionBus, in directory: String, name: String = "testplayer") async throws {
        let python = try requireExecutable("python3", package: "python3")
        try requirePythonModule("dbus", package: "python3-dbus")
        try requirePythonModule("gi", package: "python3-gi")
        callsFile = directory + "/\(name)-calls"
        let ready = directory + "/\(name)-ready"
        end = ProcessEnd(of: process)
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            packageRoot.path + "/Tests/widgetdTests/MusicPlayer/mpris-test-player.py", "--name", name,
            "--calls", callsFile, "--ready", ready,
        ]
        process.environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        _ = await waitFor("the test player's name on the bus", watching: directory) {
            FileManager.default.fileExists(atPath: ready)
        }
    }

    deinit { stop() }

    /// One command of the player's (`track T|A|B|SECONDS`, `status Paused`, `seek SECONDS`, `quit`).
    func send(_ command: String) {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
    }

    /// The methods called on it so far, in order.
    var calls: [String] {
        ((try? String(contentsOfFile: callsFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// SIGKILL, as for the bus: Python would not see a SIGTERM the test's mask blocks.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            end.waitBlocking()
        }
    }
}
