import Foundation
import Testing

/// A PulseAudio server of a test's own, headless, with one null sink (`null`, "Null Output", whose monitor is the
/// default source): its socket, state and runtime files all in the test's directory, anonymous access, no D-Bus, no
/// exit when idle. Run as root it warns that it is not meant to, and works.
final class PulseServer {
    let directory: String
    let socket: String
    private let process = Process()
    private let end: ProcessEnd

    /// What `widgetd`, `pactl` and i3status are given to reach it.
    var environment: [String: String] { ["PULSE_SERVER": "unix:" + socket] }

    /// Starts it in `directory` (which must exist), its socket at `socket` (by default `directory/native`), and
    /// waits for the socket. It may be started after a daemon that already looks for it.
    init(in directory: String, socket: String? = nil) async throws {
        let program = try requireExecutable("pulseaudio", package: "pulseaudio")
        self.directory = directory
        self.socket = socket ?? directory + "/native"
        end = ProcessEnd(of: process)
        for sub in ["home", "runtime", "state"] {
            try FileManager.default.createDirectory(
                atPath: directory + "/" + sub, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        // Under a shell that stays its parent: pulseaudio closes every descriptor it inherits, and Foundation's Process
        // takes the close of its own for the child's exit and then waits for it in `wait4`, which held every other
        // Process of the test run until pulseaudio ended. The shell writes the server's pid for `stop`, which kills
        // it and the shell with SIGKILL: the test process's children start with its threads' blocked signals, so a
        // SIGTERM would never reach either of them.
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "\"$0\" \"$@\" & server=$!; echo $server > '\(directory)/pulseaudio.pid'; wait $server",
            program, "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--disable-shm=yes",
            "--use-pid-file=no", "-L", "module-null-sink",
            "-L", "module-native-protocol-unix socket=\(self.socket) auth-anonymous=1",
        ]
        process.environment = [
            "PATH": "/usr/bin:/bin", "HOME": directory + "/home", "XDG_RUNTIME_DIR": directory + "/runtime",
            "PULSE_RUNTIME_PATH": directory + "/runtime", "PULSE_STATE_PATH": directory + "/state",
            "LANG": "C.UTF-8",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(
            forWritingTo: URL(fileURLWithPath: try Self.create(directory + "/pulseaudio.log")))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let started = await waitFor("pulseaudio's socket", watching: directory) {
            FileManager.default.fileExists(atPath: self.socket)
        }
        if !started {
            stop()
            throw PulseServerFailed(
                log: (try? String(contentsOfFile: directory + "/pulseaudio.log", encoding: .utf8)) ?? "")
        }
    }

    deinit { stop() }

    func stop() {
        guard process.isRunning else { return }
        let pidFile = (try? String(contentsOfFile: directory + "/pulseaudio.pid", encoding: .utf8)) ?? ""
        if let server = Int32(pidFile.trimmingCharacters(in: .whitespacesAndNewlines)) { kill(server, SIGKILL) }
        // The shell too: it inherits SIGCHLD blocked as well, so its `wait` would not see the server end.
        kill(process.processIdentifier, SIGKILL)
        end.waitBlocking()
    }

    /// Runs `pactl` against this server.
    func pactl(_ arguments: [String]) throws -> ProcessResult {
        let pactl = try requireExecutable("pactl", package: "pulseaudio-utils")
        return try runProgram(pactl, arguments, environment: environment)
    }

    private static func create(_ path: String) throws -> String {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw PulseServerFailed(log: "cannot create \(path)")
        }
        return path
    }
}

struct PulseServerFailed: Error, CustomStringConvertible {
    var log: String
    var description: String { "pulseaudio did not start: \(log)" }
}
