import Foundation
import Glibc
import TestSupport
import Testing

/// i3blocks-contrib-style scripts, written for these tests, run by the built daemon as an i3blocks user configures
/// them: persistent and repeating scripts whose restarts, rate limits and read budget wait on the wall clock; each
/// checks what the i3bar, i3blocks and waybar files say. The i3blocks file is listed last, so once it shows a change
/// the other two have it too. A one-shot script's properties, markup, printed keys, signal and clicks, and a
/// persistent script's lines, clicks and replacement, are `DrivenI3blocksScriptsTests`'.
@Suite("i3blocks scripts, end to end", .spawnsDaemons)
struct I3blocksScriptsTests {
    /// A directory holding the scripts, and a daemon on `config` (its `$DIR` replaced by the directory).
    final class Bench {
        let directory: TemporaryDirectory
        var daemon: DaemonUnderTest!

        init(scripts: [String: String], config: String) throws {
            directory = try TemporaryDirectory()
            for (name, body) in scripts {
                let path = try directory.write(name, body)
                chmod(path, 0o755)
            }
            daemon = try DaemonUnderTest(
                config: config.replacingOccurrences(of: "$DIR", with: directory.url.path), reusing: directory)
        }

        deinit {
            daemon.stop()
            directory.remove()
        }

        func path(_ name: String) -> String { directory.url.path + "/" + name }

        func file(_ name: String) -> String {
            (try? String(contentsOfFile: path(name), encoding: .utf8)) ?? ""
        }
    }

    @Test func aPersistentScriptThatExitsIsMarkedStaleAndStartedAgain() async throws {
        let bench = try Bench(
            scripts: [
                "flaky": """
                #!/bin/sh
                count_file="$(dirname "$0")/runs"
                n=$(( $(cat "$count_file" 2>/dev/null || echo 0) + 1 ))
                echo $n > "$count_file"
                echo "run $n"
                read -r line
                exit 3
                """
            ],
            config: """
                widgets:
                  flaky:
                    kind: exec
                    command: [$DIR/flaky]
                    interval: persist
                    output: [waybar, i3bar, i3blocks]
                """)
        let daemon = bench.daemon!
        #expect(await daemon.waitFor("the first run") { daemon.read("flaky.i3blocks") == "run 1\n" })
        // A click makes it read a line and exit.
        #expect(try daemon.cli(["click", "flaky"]).status == 0)
        #expect(
            await daemon.waitFor("the stale mark") {
                daemon.read("flaky.waybar")?.contains(#""class":["stale"]"#) == true
            })
        #expect(daemon.read("flaky.waybar")?.contains("exited with status 3; starting it again in 1 s") == true)
        #expect(await daemon.waitFor("the grey") { daemon.read("flaky.i3blocks") == "run 1\n\n#888888\n" })
        #expect(await daemon.waitFor("the second run, a second later") { daemon.read("flaky.i3blocks") == "run 2\n" })
        #expect(daemon.read("flaky.i3bar")?.contains(#""full_text":"run 2""#) == true)
        #expect(daemon.read("flaky.waybar") == #"{"text":"run 2","alt":"","class":["normal"]}"# + "\n")
    }

    /// A persist command's bad lines are logged within the widget's limit (10 lines in 5 s), as a one-shot run's
    /// failures are: one bad JSON line every 50 ms was five log lines a second for good.
    @Test(.aheadInLine) func aPersistCommandsBadLinesAreLoggedWithinTheLimit() async throws {
        let bench = try Bench(
            scripts: [
                "bad": """
                #!/bin/sh
                while :; do printf x >> "$(dirname "$0")/printed"; echo '{bad'; sleep 0.05; done
                """
            ],
            config: """
                widgets:
                  bad:
                    kind: exec
                    command: [$DIR/bad]
                    interval: persist
                    format: json
                """)
        let daemon = bench.daemon!
        #expect(
            await daemon.waitFor("forty bad lines", timeout: .seconds(15)) {
                ((try? String(contentsOfFile: bench.path("printed"), encoding: .utf8)) ?? "").count >= 40
            })
        let logged = daemon.log.split(separator: "\n").filter { $0.contains("does not parse") }
        #expect(logged.count <= 11, "\(logged.count) lines: \(logged.suffix(3))")
        #expect(!logged.isEmpty)
    }

    /// A repeat run's whole output is its entry when it exits, as i3blocks reads it: full text, short text and colour
    /// lines, and exit status 33 for urgent. Each line was taken as an entry of its own (the colour shown as the
    /// text) and 33 as a failure, going stale and backing off.
    @Test(.aheadInLine) func aRepeatRunsWholeOutputIsItsEntryAndThirtyThreeIsUrgent() async throws {
        let bench = try Bench(
            scripts: [
                "alert": """
                #!/bin/sh
                printf x >> "$(dirname "$0")/runs"
                echo "<b>full</b>"
                echo short
                echo '#FF0000'
                exit 33
                """
            ],
            config: """
                widgets:
                  alert:
                    kind: exec
                    command: [$DIR/alert]
                    interval: repeat
                    intent: {markup: pango}
                    output: [i3bar]
                """)
        let daemon = bench.daemon!
        #expect(
            await daemon.waitFor("the entry", timeout: .seconds(10)) {
                daemon.read("alert.i3bar")?.contains(#""full_text":"<b>full</b>""#) == true
            }, "\(daemon.read("alert.i3bar") ?? "")\n\(daemon.log)")
        let block = try #require(daemon.read("alert.i3bar"))
        #expect(block.contains(#""short_text":"short""#), "\(block)")
        #expect(block.lowercased().contains(##""color":"#ff0000""##), "\(block)")
        #expect(block.contains(#""urgent":true"#), "\(block)")
        // Run again at once, each time the same whole entry; never a failure.
        let runs = bench.path("runs")
        #expect(
            await daemon.waitFor("three runs", timeout: .seconds(10)) {
                ((try? String(contentsOfFile: runs, encoding: .utf8)) ?? "").count >= 3
            })
        #expect(!daemon.log.contains("exited with status 33"), "\(daemon.log)")
        #expect(daemon.read("alert.i3bar") == block)
    }

    /// i3blocks' `interval=repeat`: a script that prints a line and exits is started again at once (at most once a
    /// second), and its entry is never marked stale in between; a failing exit still is.
    @Test(.aheadInLine) func aRepeatingScriptStartsAgainWithoutGoingStale() async throws {
        let bench = try Bench(
            scripts: [
                "event": """
                #!/bin/sh
                count_file="$(dirname "$0")/events"
                n=$(( $(cat "$count_file" 2>/dev/null || echo 0) + 1 ))
                echo $n > "$count_file"
                echo "event $n"
                [ "$n" -lt 4 ] || exit 5
                """
            ],
            config: """
                widgets:
                  event:
                    kind: exec
                    command: [$DIR/event]
                    interval: repeat
                    output: [waybar, i3blocks]
                """)
        let daemon = bench.daemon!
        var shown: [String] = []
        #expect(
            await daemon.waitFor("three runs in turn", timeout: .seconds(20)) {
                // The fourth run follows the third within a second: a wait descheduled that long sees it instead, and
                // its failure's stale mark is not one of the three runs'.
                if let text = daemon.read("event.waybar"), !text.contains("event 4"), shown.last != text {
                    shown.append(text)
                }
                return ["event 3\n", "event 4\n"].contains(daemon.read("event.i3blocks"))
            }, "\(shown)")
        #expect(!shown.contains { $0.contains("stale") }, "\(shown)")
        #expect(!daemon.log.contains("event: exited; starting it again"), "\(daemon.log)")
        // The fourth run fails: that one is stale, as a persist command's exit is.
        #expect(
            await daemon.waitFor("the failure's stale mark") {
                // "in 1 s" after the first failure, then doubling: a test descheduled for a second sees a later one.
                daemon.read("event.waybar")?.contains("exited with status 5; starting it again in") == true
            })
    }

    @Test func aFloodingPersistentScriptIsSlowedDownAndSlowsNoOtherWidget() async throws {
        let bench = try Bench(
            scripts: [
                "flood":
                    "#!/bin/sh\necho $$ > \"$(dirname \"$0\")/flood.pid\"\ni=0\nwhile :; do i=$((i+1)); echo \"tick $i\"; done\n",
                "counter": """
                #!/bin/sh
                f="$(dirname "$0")/count"; n=$(( $(cat "$f" 2>/dev/null || echo 0) + 1 )); echo $n > "$f"; echo "n $n"
                """,
            ],
            config: """
                widgets:
                  flood:
                    kind: exec
                    command: [$DIR/flood]
                    interval: persist
                    output: [waybar, i3bar, i3blocks]
                  counter:
                    kind: exec
                    command: [$DIR/counter]
                    output: [waybar, i3bar, i3blocks]
                """)
        let daemon = bench.daemon!
        #expect(await daemon.waitFor("the flood to show") { daemon.read("flood.i3blocks")?.hasPrefix("tick ") == true })
        #expect(
            await daemon.waitFor("the rate limit's log line") {
                daemon.log.contains("flood: printed faster than 20 lines a second")
            }
        )
        // Other widgets answer as usual: each reload is written while the flood goes on.
        for expected in 2...4 {
            #expect(try daemon.cli(["reload", "counter", "--wait"]).status == 0)
            #expect(daemon.read("counter.i3blocks") == "n \(expected)\n")
        }
        let first = daemon.read("flood.i3blocks")
        #expect(await daemon.waitFor("the flood's newest line") { daemon.read("flood.i3blocks") != first })
        // Past the limit the daemon stops reading until the second is over, so the script blocks on its full pipe
        // (where it ran flat out, and the daemon with it, reading lines only to skip them): seen blocked in write at
        // five samples in a row, 50 ms apart. No event tells this, so /proc is sampled, up to a deadline.
        let floodPID = try #require(pid_t(bench.file("flood.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        var blockedInARow = 0
        let deadline = ContinuousClock.now + .seconds(5)
        while blockedInARow < 5, ContinuousClock.now < deadline {
            let wchan = (try? String(contentsOfFile: "/proc/\(floodPID)/wchan", encoding: .utf8)) ?? ""
            blockedInARow = wchan.contains("pipe_write") ? blockedInARow + 1 : 0
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(blockedInARow == 5, "the flooding script was never held back by its pipe")
        #expect(daemon.read("flood.i3bar")?.hasPrefix(#"{"full_text":"tick "#) == true)
        #expect(daemon.read("flood.waybar")?.hasPrefix(#"{"text":"tick "#) == true)
        // The daemon stops it when it stops.
        let pid = try #require(pid_t(bench.file("flood.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        daemon.stop()
        #expect(await waitFor("the flood to stop with the daemon") { kill(pid, 0) != 0 })
    }
}
