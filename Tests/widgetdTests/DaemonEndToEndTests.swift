import Foundation
import TestSupport
import Testing

/// The built daemon, started on temporary configs and directories.
@Suite("widgetd run, end to end", .spawnsDaemons)
struct DaemonEndToEndTests {
    static let config = """
        widgets:
          quote:
            kind: quotes
            intent:
              category: focus
            output: [plain, i3blocks, waybar]
          seconds:
            kind: clock
            family: systemSmall
            intent:
              seconds: true
              format: "%T"

        """

    @Test func reloadWaitReturnsAfterTheReloadLanded() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        let statusPath = daemon.runtime + "/status/quote.json"
        #expect(await waitFor("the first timeline") { FileManager.default.fileExists(atPath: statusPath) })
        let before = try inode(statusPath)
        let result = try daemon.cli(["reload", "--kind", "quotes", "--wait"])
        #expect(result.status == 0, "\(result.stderr)")
        // No waiting here: --wait returned only once the reload's results were written (each write of the
        // status file is a rename, so a new inode).
        #expect(try inode(statusPath) != before)
        #expect(try daemon.cli(["reload", "quote", "--wait"]).status == 0)
        #expect(try daemon.cli(["reload", "--wait"]).status == 0)
    }

    @Test func garbageOnTheFIFOLeavesTheDaemonRunningAndAnswering() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(await daemon.waitFor("start-up") { daemon.read("quote.plain") != nil })
        let fifo = try #require(FileHandle(forWritingAtPath: daemon.runtime + "/control"))
        var random = SystemRandomNumberGenerator()
        // Random lines, each starting with a byte UTF-8 never uses: all are dropped as "not UTF-8", one repeated
        // warning. A random line that happened to be valid text would be logged as an unknown command of its own,
        // and a few of those used up the log's burst (10 lines in 5 s), so the lines below went unlogged.
        var garbage = (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &random) }
        for index in garbage.indices where index == 0 || garbage[index - 1] == UInt8(ascii: "\n") {
            garbage[index] = 0xFF
        }
        fifo.write(Data(garbage))
        fifo.write(Data(repeating: UInt8(ascii: "a"), count: 1 << 20) + Data("\n".utf8))
        fifo.write(Data("reload nosuchwidget\nclick quote 9\nintent quote fly\n".utf8))
        try fifo.close()
        #expect(
            await daemon.waitFor("the long line to be dropped") { daemon.log.contains("line longer than 4096 bytes") })
        #expect(daemon.process.isRunning)
        let result = try daemon.cli(["reload", "quote", "--wait"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(daemon.log.contains("button must be 1-5"))
    }

    @Test func waitReportsARequestThatFailed() async throws {
        let daemon = try DaemonUnderTest(config: "widgets:\n  quote:\n    kind: quotes\n  todos:\n    kind: todos\n")
        #expect(
            await waitFor("the first timelines") {
                FileManager.default.fileExists(atPath: daemon.runtime + "/status/quote.json")
                    && FileManager.default.fileExists(atPath: daemon.runtime + "/status/todos.json")
            })
        // An unknown intent is refused by the CLI before the daemon sees it (the daemon's own answer to one is
        // RequestDispatcherTests'); a to-do the store lacks only the daemon can find.
        let unknown = try daemon.cli(["intent", "quote", "nope", "--wait"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("widgetd: error: kind 'quotes' of widget 'quote' has no intent 'nope'"))
        let missing = try daemon.cli(["intent", "todos", "toggle", "item=nothing like it", "--wait"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("widgetd: error: todos: toggle failed: "), "\(missing.stderr)")
        // A button with nothing bound does nothing: a `--wait`, which asked for something to happen, is told why.
        let scroll = try daemon.cli(["click", "quote", "--button", "4", "--wait"])
        #expect(scroll.status == 1)
        #expect(scroll.stderr.hasPrefix("widgetd: error: quote: nothing is bound to the scroll-up button"))
        // Without --wait a bar's click is not told, but the daemon says why it dropped it (the reason's wording is
        // RequestDispatcherTests').
        #expect(try daemon.cli(["click", "quote", "--button", "2"]).status == 0)
        #expect(
            await daemon.waitFor("the dropped click logged") {
                daemon.log.contains("quote: nothing is bound to the middle button") && daemon.log.contains("dropped")
            })
        #expect(try daemon.cli(["intent", "quote", "next", "--wait"]).status == 0)
    }

    @Test func aSecondDaemonRefusesToStartAndStopIsClean() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(await waitFor("start-up") { FileManager.default.fileExists(atPath: daemon.runtime + "/lock") })
        let second = try runWidgetd(["run", "--config", daemon.configPath], environment: daemon.environment)
        #expect(second.status == 1)
        #expect(second.stderr == "widgetd: already running (pid \(daemon.process.processIdentifier))\n")
        daemon.stop()
        #expect(daemon.process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.runtime + "/control"))
        #expect(!FileManager.default.fileExists(atPath: daemon.runtime + "/lock"))
        #expect(daemon.log.contains("widgetd: info: stopped"))
    }

    @Test func reloadWithoutADaemonSaysSoAndFails() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try runWidgetd(["reload"], environment: ["XDG_RUNTIME_DIR": directory.url.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not running"))
    }

    /// A follower of a widget removed from the config printed nothing more, so its bar kept the removed widget's last
    /// text for ever. Now the bar gets an empty line once the widget's record has been gone a moment, and the text
    /// again when the widget comes back.
    @Test(.aheadInLine) func aFollowerOfARemovedWidgetEmptiesItsBlock() async throws {
        let both = "widgets:\n  kept:\n    kind: quotes\n  later:\n    kind: quotes\n"
        let daemon = try DaemonUnderTest(config: both)
        #expect(await daemon.waitFor("both timelines") { daemon.hasTimeline("kept") && daemon.hasTimeline("later") })
        let follower = try Follower(daemon, showing: "later")
        // In i3bar's JSON too, as contrib/i3blocks.conf follows it: i3blocks 1.4 takes an empty line for a closed pipe.
        let json = try Follower(daemon, showing: "later", arguments: ["--format", "i3bar"])
        // Both have shown the widget before it goes (a follower started after that finds no widget to empty).
        #expect(await waitFor("the first lines") { !follower.lines.isEmpty && !json.lines.isEmpty })
        try daemon.editConfig("widgets:\n  kept:\n    kind: quotes\n")
        #expect(
            await waitFor("the empty line", timeout: .seconds(10)) { follower.output.hasSuffix("\n\n") },
            "\(follower.output.debugDescription)")
        #expect(
            await waitFor("the empty block") { json.lines.last?.contains(#""full_text":"""#) == true },
            "\(json.output)")
        try daemon.editConfig(both)
        #expect(
            await waitFor("the text again", timeout: .seconds(10)) {
                !follower.output.hasSuffix("\n\n") && follower.lines.count >= 2
            }, "\(follower.output.debugDescription)")
    }

    @Test(.aheadInLine) func idleDaemonDoesNotWakeUp() async throws {
        // Only quotes widgets: after their first timeline nothing is due for an hour.
        let daemon = try DaemonUnderTest(config: "widgets:\n  a:\n    kind: quotes\n  b:\n    kind: quotes\n")
        #expect(
            await waitFor("both timelines") {
                FileManager.default.fileExists(atPath: daemon.runtime + "/status/a.json")
                    && FileManager.default.fileExists(atPath: daemon.runtime + "/status/b.json")
            })
        // Start-up ends with one more wake-up, half a second after the last first answer: the working set's trim.
        #expect(await daemon.waitFor("the trim") { daemon.log.contains("handing back start-up's mapped files") })
        // Let the provider tasks' threads park: wait until a half-second passes with no context switch.
        #expect(
            try await waitForQuiet("the daemon to settle", window: .milliseconds(500)) { try daemon.contextSwitches() })
        // The measurement window the issue asks for: three idle seconds. The pause is the test: "it does not wake"
        // can only be seen by letting the time pass. An idle daemon needs no turn at the cores meanwhile.
        await DaemonGate.giveBackTurn()
        let before = try daemon.contextSwitches()
        try await Task.sleep(for: .seconds(3))
        let after = try daemon.contextSwitches()
        #expect(after == before, "the idle daemon woke \(after - before) times in 3 s")
    }
}

/// The inode of `path`: a file replaced by rename has a new one.
func inode(_ path: String) throws -> UInt64 {
    var status = stat()
    guard stat(path, &status) == 0 else { throw CocoaError(.fileNoSuchFile) }
    return UInt64(status.st_ino)
}

@Suite("widgetd show and list, end to end", .spawnsDaemons)
struct ShowAndListEndToEndTests {
    @Test func showFollowPrintsOneLinePerChange() async throws {
        let daemon = try DaemonUnderTest(config: DaemonEndToEndTests.config)
        #expect(await daemon.waitFor("the clock file") { daemon.read("seconds.plain") != nil })
        let follower = try Follower(daemon, showing: "seconds", arguments: ["--format", "i3bar"])
        var lines: [Substring] = []
        #expect(
            await waitFor("three lines from show --follow") {
                lines = follower.lines
                return lines.count >= 3
            })
        // Each line is one i3bar block, and each differs from the one before.
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["instance"] as? String == "seconds")
        }
        #expect(Set(lines).count == lines.count)
    }

    @Test func showFollowCarriesOnWhenTheOutputDirectoryIsReplaced() async throws {
        let daemon = try DaemonUnderTest(config: "widgets:\n  quote:\n    kind: quotes\n")
        #expect(await daemon.waitFor("the first timeline") { daemon.hasTimeline("quote") })
        let follower = try Follower(daemon, showing: "quote")
        let lines = { follower.lines }
        #expect(await waitFor("the first line") { lines().count == 1 })
        let replacements: [() async -> Void] = [
            {
                // `rm -r` of a directory the daemon is still writing into can fail, for a user too; tried again.
                _ = await waitFor("rm -r of the output directory") {
                    (try? FileManager.default.removeItem(atPath: daemon.output)) != nil
                }
            },
            { _ = rename(daemon.output, daemon.output + ".old-\(UUID().uuidString)") },
        ]
        for replace in replacements {
            let before = lines().count
            await replace()
            #expect(await daemon.waitFor("the directory made again") { daemon.read("quote.json") != nil })
            #expect(try daemon.cli(["reload", "quote", "--wait"]).status == 0)
            let shown = try #require(daemon.read("quote.plain"))
            #expect(
                await waitFor("show --follow to print the new quote") {
                    lines().count > before && lines().last.map { $0 + "\n" } == shown
                }, "printed: \(lines())")
        }
    }

    @Test func showFollowCarriesOnWhenTheOutputDirectorysParentsGoToo() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let output = root.url.path + "/cache/widgetd/out"
        let daemon = try DaemonUnderTest(
            config: "settings:\n  output_dir: \(output)\nwidgets:\n  quote:\n    kind: quotes\n")
        let read = { (try? String(contentsOfFile: output + "/quote.plain", encoding: .utf8)) }
        #expect(await daemon.waitFor("the first timeline") { daemon.hasTimeline("quote") })
        let follower = try Follower(daemon, showing: "quote")
        let lines = { follower.lines }
        #expect(await waitFor("the first line") { lines().count == 1 })
        // `rm -r` of a directory the daemon is still writing into can fail, for a user too; it is tried again.
        #expect(
            await waitFor("rm -r of the output directory's parents") {
                (try? FileManager.default.removeItem(atPath: root.url.path + "/cache/widgetd")) != nil
            })
        #expect(await waitFor("the whole path made again") { read() != nil })
        #expect(try daemon.cli(["reload", "quote", "--wait"]).status == 0)
        let shown = try #require(read())
        #expect(
            await waitFor("show --follow to print the new quote") {
                lines().count > 1 && lines().last.map { $0 + "\n" } == shown
            }, "printed: \(lines())")
    }

    @Test func showRendersAnyFormatAndListShowsEveryWidget() async throws {
        let daemon = try DaemonUnderTest(config: DaemonEndToEndTests.config)
        // Both widgets `list` is asked about below: on a busy machine the clock's status can come second.
        #expect(
            await daemon.waitFor("the first timelines") { daemon.hasTimeline("quote") && daemon.hasTimeline("seconds") }
        )
        let unknown = try daemon.cli(["show", "quot"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("widgetd: error: no widget 'quot' in "))
        #expect(unknown.stderr.contains("did you mean 'quote'?"))
        let tmux = try daemon.cli(["show", "quote", "--format", "tmux"])
        #expect(tmux.status == 0)
        #expect(tmux.stdout == daemon.read("quote.plain"))
        let list = try daemon.cli(["list"])
        #expect(list.status == 0)
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("NAME") == true)
        #expect(lines.contains { $0.hasPrefix("quote ") && $0.contains("quotes") && $0.contains("after ") })
        #expect(lines.contains { $0.hasPrefix("seconds ") && $0.contains("clock") && $0.contains("atEnd") })
        let missing = try daemon.cli(["show", "nope"])
        #expect(missing.status == 1)
    }
}
