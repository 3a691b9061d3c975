import Foundation
import TestSupport
import Testing

/// `show --follow` ends quietly when its reader or its parent bar goes, and sleeps while other widgets tick.
@Suite("show --follow: exits with its bar, sleeps beside others", .spawnsDaemons)
struct FollowerLifetimeTests {
    static let config = """
        widgets:
          quote:
            kind: quotes
          seconds:
            kind: clock
            intent:
              seconds: true
              format: "%T"
            output: [plain, i3blocks, i3bar, waybar, polybar, tmux]

        """

    /// Runs `script` in bash with the daemon's environment and `W` set to the built widgetd; waits for it to end.
    private func bash(_ script: String, daemon: DaemonUnderTest) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let outPath = try daemon.directory.write("bash-\(UUID().uuidString).out", "")
        let errPath = try daemon.directory.write("bash-\(UUID().uuidString).err", "")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.environment = daemon.environment.merging(
            ["W": widgetdBinary.path, "CONFIG": daemon.configPath, "PATH": "/usr/bin:/bin"]) { $1 }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardOutput = output
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run(thenClosing: output, errors)
        let ended = await waitFor("bash -c \(script)") { !process.isRunning }
        if !ended { process.terminate() }
        try process.waitForExitOrThrow(timeout: .seconds(10))
        return (
            process.terminationStatus, (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        )
    }

    @Test(arguments: ["seconds", "quote"])
    func exitsQuietlyWhenItsReaderClosesWithSIGPIPEIgnored(widget: String) async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(
            await daemon.waitFor("the first timelines") { daemon.hasTimeline("quote") && daemon.hasTimeline("seconds") }
        )
        // `head -1` closes the pipe after the first line: the ticking clock finds out on its next write (EPIPE),
        // the quote, which writes nothing more for an hour, from poll (POLLERR on the pipe's write end).
        for disposition in ["trap '' PIPE", "trap - PIPE"] {
            let result = try await bash(
                "\(disposition); \"$W\" show \(widget) --format i3bar --follow --config \"$CONFIG\" | head -1;"
                    + " echo \"status=${PIPESTATUS[0]}\"", daemon: daemon)
            #expect(result.stdout.hasSuffix("status=0\n"), "\(disposition): \(result)")
            #expect(result.stdout.contains("\"instance\":\"\(widget)\""), "\(disposition): \(result)")
            #expect(result.stderr.isEmpty, "\(disposition): \(result.stderr)")
        }
    }

    @Test func showWithoutFollowWritesToAClosedPipeQuietly() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(await daemon.waitFor("the first timeline") { daemon.hasTimeline("quote") })
        // The reader closes its end and lingers, and widgetd starts only once it has (a FIFO line tells it), so its
        // one write meets a pipe with no reader; started together, widgetd could write before a slow reader closed.
        let closed = daemon.directory.url.path + "/reader-closed"
        #expect(mkfifo(closed, 0o600) == 0)
        let result = try await bash(
            "trap '' PIPE; { read -r _ < '\(closed)'; exec \"$W\" show quote --config \"$CONFIG\"; }"
                + " | (exec 0<&-; echo > '\(closed)'; sleep 0.3); echo \"status=${PIPESTATUS[0]}\"", daemon: daemon)
        // Like every one-shot command whose output cannot be written: quietly, with status 1 (not killed, no trap).
        #expect(result.stdout == "status=1\n", "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func exitsWhenItsParentDies() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(await daemon.waitFor("the first timeline") { daemon.hasTimeline("quote") })
        let outPath = try daemon.directory.write("orphan.out", "")
        let errPath = try daemon.directory.write("orphan.err", "")
        // The parent shell starts the follower (its output a file, which never closes), prints its pid, waits until
        // the follower has printed its first line, and exits: the follower is an orphan whose reader is still there.
        let result = try await bash(
            "\"$W\" show quote --follow --config \"$CONFIG\" >'\(outPath)' 2>'\(errPath)' & echo $!;"
                + " for i in $(seq 500); do [ -s '\(outPath)' ] && break; sleep 0.01; done", daemon: daemon)
        #expect(result.status == 0)
        let pid = try #require(Int32(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(
            await waitFor("the orphaned follower to exit") {
                // Gone, or a zombie waiting for a reaper that is not us.
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
                return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
            })
        #expect((try? String(contentsOfFile: outPath, encoding: .utf8))?.isEmpty == false)
        #expect((try? String(contentsOfFile: errPath, encoding: .utf8)) == "")
    }

    /// A raw i3blocks persist block takes every line as a full text: `--format i3blocks --follow` prints one line per
    /// update, not the file's full text, short text and colour lines.
    @Test func theI3blocksFormatFollowsOneLinePerUpdate() async throws {
        // Full text, short text and colour: the file has three lines.
        let daemon = try DaemonUnderTest(
            config:
                "widgets:\n  tick:\n    kind: exec\n    command: [sh, -c, 'date +%s%N; echo s; echo \"#ff0000\"']\n    interval: 1s\n    output: [i3blocks]\n"
        )
        #expect(
            await daemon.waitFor("the first run") { daemon.read("tick.i3blocks")?.hasSuffix("\ns\n#ff0000\n") == true })
        let follower = try Follower(daemon, showing: "tick", arguments: ["--format", "i3blocks"])
        #expect(await waitFor("two updates") { follower.lines.count >= 2 })
        #expect(follower.lines.allSatisfy { $0.wholeMatch(of: /[0-9]+/) != nil }, "\(follower.lines)")
    }

    @Test(.aheadInLine) func sleepsWhileAnotherWidgetTicksEverySecond() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(
            await daemon.waitFor("the first timelines") { daemon.hasTimeline("quote") && daemon.hasTimeline("seconds") }
        )
        let follower = try Follower(daemon, showing: "quote")
        #expect(await waitFor("the first line") { follower.lines.count == 1 })
        // Let the follower settle (the runtime's start-up threads), then count while the clock ticks three times:
        // each tick rewrites six files in the directory the follower's record is in.
        #expect(
            try await waitForQuiet("the follower to settle", window: .milliseconds(200)) {
                try contextSwitches(of: follower.processIdentifier)
            })
        await DaemonGate.giveBackTurn()  // the clock ticking three times costs the cores nothing
        let before = try contextSwitches(of: follower.processIdentifier)
        var ticks: Set<String> = []
        #expect(
            await waitFor("three ticks of the clock") {
                if let tick = daemon.read("seconds.plain") { ticks.insert(tick) }
                return ticks.count >= 4
            })
        let after = try contextSwitches(of: follower.processIdentifier)
        #expect(after - before <= 1, "the follower woke \(after - before) times in three clock ticks")
        #expect(follower.lines.count == 1)
    }

    /// A bar starts before the daemon (a login's usual order): its follower makes the runtime directories it waits
    /// in, closed to others as the daemon makes them, so the daemon takes them instead of refusing to start.
    @Test func aFollowerStartedBeforeTheDaemonLeavesItsDirectoriesPrivate() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try directory.write("widgets.yaml", "widgets:\n  quote:\n    kind: quotes\n")
        let root = directory.url.path
        let outPath = try directory.write("follow.out", "")
        let follower = Process()
        follower.executableURL = widgetdBinary
        follower.arguments = ["show", "quote", "--follow", "--config", config]
        follower.environment = [
            "XDG_RUNTIME_DIR": root + "/run", "XDG_STATE_HOME": root + "/state", "XDG_DATA_HOME": root + "/data",
            "HOME": root + "/home",
        ]
        let followerOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        follower.standardOutput = followerOutput
        follower.standardInput = FileHandle.nullDevice
        try follower.run(thenClosing: followerOutput)
        defer {
            follower.terminateAndWait()
        }
        #expect(
            await waitFor("the follower's directories", watching: root) {
                FileManager.default.fileExists(atPath: root + "/run/widgetd/out")
            })
        for path in [root + "/run/widgetd", root + "/run/widgetd/out"] {
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o700, "\(path)")
        }
        let daemon = try DaemonUnderTest(config: "widgets:\n  quote:\n    kind: quotes\n", reusing: directory)
        #expect(
            await daemon.waitFor("the follower's first line") {
                !((try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "").isEmpty
            }, "\(daemon.log)")
    }
}
