import Foundation
import TestSupport
import Testing

/// The built daemon, started on temporary configs and directories. A second daemon refused beside a running one, and
/// the clean stop, are DaemonTests' `DrivenStartTests`.
@Suite("widgetd run, end to end", .spawnsDaemons)
struct DaemonEndToEndTests {
    static let config = SampleConfigs.quoteAndSeconds

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
        // The measurement window the issue asks for: three idle seconds, once, with not one wake in them. The pause is
        // the test: "it does not wake" can only be seen by letting the time pass. An idle daemon needs no turn at the
        // cores meanwhile.
        await DaemonGate.giveBackTurn()
        #expect(
            try await waitForQuiet(
                "three seconds without a wake of the idle daemon", window: .seconds(3), timeout: .seconds(3)
            ) { try daemon.contextSwitches() })
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
            #expect(try await daemon.cli(["reload", "quote", "--wait"]).status == 0)
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
        #expect(try await daemon.cli(["reload", "quote", "--wait"]).status == 0)
        let shown = try #require(read())
        #expect(
            await waitFor("show --follow to print the new quote") {
                lines().count > 1 && lines().last.map { $0 + "\n" } == shown
            }, "printed: \(lines())")
    }

}
