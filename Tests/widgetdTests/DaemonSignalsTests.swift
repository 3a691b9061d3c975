import Foundation
import Testing

/// Signals are sent by name (`pkill -RTMIN+N widgetd`, `pkill -HUP widgetd`), so they reach the `show --follow` and
/// `bar` processes a bar runs as well as the daemon: the daemon acts on them, the others live on. A stray SIGUSR1 or
/// SIGUSR2 does not end the daemon either.
@Suite("signals meant for the daemon", .spawnsDaemons)
struct DaemonSignalsTests {
    static let config = """
        widgets:
          quote:
            kind: quotes
          counter:
            kind: exec
            command: [sh, -c, "date +%s%N"]
            signal: 5

        """

    /// A widgetd command started as a bar starts its status command: no signal blocked (the tests' process blocks
    /// most, and a child would inherit that), its output a file, its input a pipe held open.
    final class BarChild {
        let process = Process()
        let input = Pipe()
        private let outPath: String

        init(_ daemon: DaemonUnderTest, _ arguments: [String]) throws {
            outPath = try daemon.directory.write("child-\(UUID().uuidString).out", "")
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments =
                [
                    "-c",
                    "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
                    widgetdBinary.path,
                ] + arguments + ["--config", daemon.configPath]
            process.environment = daemon.environment
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
            process.standardInput = input
            try process.run()
        }

        deinit {
            process.terminate()
            process.waitUntilExit()
        }

        var pid: Int32 { process.processIdentifier }

        var lines: Int {
            ((try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "").split(separator: "\n").count
        }

        /// Whether the signal is blocked in the process (its `SigBlk` mask in /proc).
        func blocks(_ signal: Int32) -> Bool {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let mask = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }?.split(separator: "\t").last
            return (UInt64(mask.map(String.init) ?? "", radix: 16) ?? 0) & (1 << UInt64(signal - 1)) != 0
        }
    }

    /// Alive and not a zombie.
    private func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
    }

    @Test func pkillOfTheDaemonsSignalsLeavesFollowersAndBarsRunning() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(await daemon.waitFor("the first timeline") { daemon.hasTimeline("quote") })
        let follower = try BarChild(daemon, ["show", "quote", "--follow"])
        let bar = try BarChild(daemon, ["bar", "--widgets", "quote"])
        bar.input.fileHandleForWriting.write(Data("[\n".utf8))
        // The header, "[" and a first status line.
        #expect(await waitFor("the first lines") { follower.lines >= 1 && bar.lines >= 3 })
        let widgetSignal = __libc_current_sigrtmin() + 5
        #expect(!follower.blocks(widgetSignal) && !follower.blocks(SIGHUP))
        #expect(!bar.blocks(widgetSignal) && !bar.blocks(SIGHUP))

        /// Both still follow the widget: a reload reaches them.
        func bothFollow(after what: String) async throws {
            let (shown, statusLines) = (follower.lines, bar.lines)
            #expect(try daemon.cli(["reload", "quote", "--wait"]).status == 0)
            #expect(await waitFor("show --follow's next line after \(what)") { follower.lines > shown })
            #expect(await waitFor("bar's next status line after \(what)") { bar.lines > statusLines })
        }

        // What `pkill -RTMIN+5 widgetd` does: the signal to every process of that name.
        for pid in [daemon.process.processIdentifier, follower.pid, bar.pid] { kill(pid, widgetSignal) }
        #expect(
            await daemon.waitFor("the signalled reload") { daemon.log.contains("signal RTMIN+5: reloading counter") })
        try await bothFollow(after: "SIGRTMIN+5")
        // And `pkill -HUP widgetd`; their output is a file, not a terminal.
        for pid in [daemon.process.processIdentifier, follower.pid, bar.pid] { kill(pid, SIGHUP) }
        #expect(await daemon.waitFor("the re-read") { daemon.log.contains("SIGHUP: re-reading") })
        try await bothFollow(after: "SIGHUP")
        // And `pkill -USR1 widgetd` (meant for a bar, say): the daemon logs it, the followers ignore it; it ended them.
        for pid in [daemon.process.processIdentifier, follower.pid, bar.pid] {
            kill(pid, SIGUSR1)
            kill(pid, SIGUSR2)
        }
        #expect(
            await daemon.waitFor("SIGUSR1 and SIGUSR2 logged") {
                daemon.log.contains("SIGUSR1: widgetd uses neither") && daemon.log.contains("SIGUSR2: widgetd uses")
            })
        try await bothFollow(after: "SIGUSR1 and SIGUSR2")
        for pid in [daemon.process.processIdentifier, follower.pid, bar.pid] { #expect(isAlive(pid)) }
    }
}
