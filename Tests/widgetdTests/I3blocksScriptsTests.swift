import Foundation
import Glibc
import TestSupport
import Testing

/// i3blocks-contrib-style scripts, written for these tests, run by the built daemon as an i3blocks user configures
/// them: persistent and repeating scripts, whose restarts wait on the wall clock; each checks what the i3bar, i3blocks
/// and waybar files say. The i3blocks file is listed last, so once it shows a change the other two have it too. A
/// one-shot script's properties, markup, printed keys and signal are `DrivenI3blocksScriptsTests`'.
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

    @Test func aPersistentScriptShowsEachLineAndReadsClicksOnItsStandardInput() async throws {
        let bench = try Bench(
            scripts: [
                // As i3blocks-contrib's persist scripts: print, then block on input.
                "clicks": """
                #!/bin/sh
                echo "ready $BLOCK_INTERVAL"
                echo $$ > "$(dirname "$0")/clicks.pid"
                while read -r button; do echo "button $button"; done
                """,
                "clicks_json": """
                #!/usr/bin/env python3
                import json, sys
                print(json.dumps({"full_text": "waiting", "color": "#00ff00"}), flush=True)
                for line in sys.stdin:
                    c = json.loads(line)
                    text = "%s/%s b%d at %d,%d in %dx%d (%d,%d) %s" % (c["name"], c["instance"], c["button"],
                        c["relative_x"], c["relative_y"], c["width"], c["height"], c["x"], c["y"],
                        "+".join(c["modifiers"]))
                    print(json.dumps({"full_text": text, "short_text": "b%d" % c["button"]}), flush=True)
                """,
            ],
            config: """
                widgets:
                  raw:
                    kind: exec
                    command: [$DIR/clicks]
                    interval: persist
                    output: [waybar, i3bar, i3blocks]
                    intent: {label: P}
                  json:
                    kind: exec
                    command: [$DIR/clicks_json]
                    interval: persist
                    format: json
                    output: [waybar, i3bar, i3blocks]
                    intent: {instance: eth0}
                """)
        let daemon = bench.daemon!
        #expect(await daemon.waitFor("the first lines") { daemon.read("raw.i3blocks") == "P ready persist\n" })
        #expect(await daemon.waitFor("the JSON block") { daemon.read("json.i3blocks") == "waiting\n\n#00ff00\n" })
        // Not killed at the timeout: still there well after 5 s would not be waited for; the click proves it runs.
        #expect(try daemon.cli(["click", "raw", "--button", "3"]).status == 0)
        #expect(await daemon.waitFor("the click's line") { daemon.read("raw.i3blocks") == "P button 3\n" })
        #expect(
            daemon.read("raw.i3bar")
                == #"{"full_text":"P button 3","urgent":false,"name":"widgetd","instance":"raw","markup":"none"}"#
                + "\n")
        #expect(daemon.read("raw.waybar") == #"{"text":"P button 3","alt":"","class":["normal"]}"# + "\n")
        #expect(
            try daemon.cli([
                "click", "json", "--button", "1", "--x", "7", "--width", "90", "--y", "3", "--height", "20",
                "--screen-x", "1500", "--screen-y", "1060", "--modifiers", "Shift,Mod4",
            ]).status == 0)
        let expected = "json/eth0 b1 at 7,3 in 90x20 (1500,1060) Shift+Mod4"
        #expect(await daemon.waitFor("the JSON click's answer") { daemon.read("json.i3blocks") == "\(expected)\nb1\n" })
        #expect(
            daemon.read("json.i3bar")
                == #"{"full_text":"\#(expected)","short_text":"b1","urgent":false,"name":"widgetd","instance":"json","markup":"none"}"#
                + "\n")
        #expect(daemon.read("json.waybar") == #"{"text":"\#(expected)","alt":"b1","class":["normal"]}"# + "\n")

        // A reload of a running persist widget is answered at once and starts nothing new, as in i3blocks.
        #expect(try daemon.cli(["reload", "raw", "--wait"]).status == 0)
        #expect(bench.file("clicks.pid").split(separator: "\n").count == 1)

        // Removed from the config: its process group is stopped.
        let pid = try #require(pid_t(bench.file("clicks.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) == 0)
        try daemon.editConfig("widgets:\n  other:\n    kind: clock\n")
        #expect(await waitFor("the persistent script to stop") { kill(pid, 0) != 0 })
    }

    @Test func aChangedPersistentWidgetStopsItsCommandAndStartsANewOne() async throws {
        let bench = try Bench(
            scripts: [
                "memory": "#!/bin/sh\necho $$ >> \"$(dirname \"$0\")/memory.pids\"\necho \"mem $$\"\nexec sleep 1000\n"
            ],
            config: """
                widgets:
                  memory:
                    kind: exec
                    command: [$DIR/memory]
                    interval: persist
                    output: [waybar, i3bar, i3blocks]
                """)
        let daemon = bench.daemon!
        func pids() -> [pid_t] { bench.file("memory.pids").split(separator: "\n").compactMap { pid_t($0) } }
        #expect(await waitFor("the first command") { pids().count == 1 && daemon.read("memory.i3blocks") != nil })
        let first = try #require(pids().first)
        #expect(await daemon.waitFor("its line") { daemon.read("memory.i3blocks") == "mem \(first)\n" })
        try daemon.editConfig(
            """
            widgets:
              memory:
                kind: exec
                command: [\(bench.path("memory"))]
                interval: persist
                output: [waybar, i3bar, i3blocks]
                intent: {label: M}
            """)
        #expect(await waitFor("a second command") { pids().count == 2 })
        let second = pids()[1]
        #expect(await waitFor("the first command to stop") { kill(first, 0) != 0 })
        #expect(kill(second, 0) == 0)
        #expect(
            await daemon.waitFor("the new line, labelled") { daemon.read("memory.i3blocks") == "M mem \(second)\n" })
        #expect(daemon.read("memory.i3bar")?.hasPrefix(#"{"full_text":"M mem \#(second)""#) == true)
        #expect(daemon.read("memory.waybar") == #"{"text":"M mem \#(second)","alt":"","class":["normal"]}"# + "\n")
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

    @Test(.aheadInLine) func aClickDuringARunWaitsForItAndClicksMergeWithTheLastWinning() async throws {
        let bench = try Bench(
            scripts: [
                // Keeps state in files, as scripts do: overlapping runs would interleave start and end in the log,
                // and the last button given stays shown, as a toggle's state does. So the merged click's output
                // is still there when a loaded machine keeps this test from looking until after the next
                // interval run (CI once missed a two-second window).
                "stateful": """
                #!/bin/sh
                dir="$(dirname "$0")"
                echo "start ${BLOCK_BUTTON:-none}" >> "$dir/runs.log"
                sleep 0.4
                echo "end" >> "$dir/runs.log"
                if [ -n "$BLOCK_BUTTON" ]; then echo "$BLOCK_BUTTON" > "$dir/last-button"; fi
                echo "button $(cat "$dir/last-button" 2>/dev/null || echo none)"
                """
            ],
            config: """
                widgets:
                  stateful:
                    kind: exec
                    command: [$DIR/stateful]
                    interval: 2s
                    output: [waybar, i3bar, i3blocks]
                """)
        let daemon = bench.daemon!
        #expect(await waitFor("a run to start") { bench.file("runs.log").hasPrefix("start") })
        // Three clicks while a run goes on: they wait, then merge into one run with the last button.
        for button in ["1", "2", "3"] {
            #expect(try daemon.cli(["click", "stateful", "--button", button]).status == 0)
        }
        #expect(
            await waitFor("the merged click's run", timeout: .seconds(15)) {
                bench.file("runs.log").contains("start 3")
            }, "runs: \(bench.file("runs.log"))\nlog: \(daemon.log)")
        #expect(await daemon.waitFor("its output") { daemon.read("stateful.i3blocks") == "button 3\n" })
        #expect(daemon.read("stateful.i3bar")?.contains(#""full_text":"button 3""#) == true)
        #expect(daemon.read("stateful.waybar") == #"{"text":"button 3","alt":"","class":["normal"]}"# + "\n")
        #expect(
            await waitFor("another interval run") { bench.file("runs.log").components(separatedBy: "start").count > 4 })
        let lines = bench.file("runs.log").split(separator: "\n")
        // Never two starts in a row: no run began before the one before it ended.
        for (first, second) in zip(lines, lines.dropFirst()) {
            #expect(!(first.hasPrefix("start") && second.hasPrefix("start")), "\(lines)")
        }
        // Every click ran, merged: button 1 and 2 never ran on their own after 3 was given.
        // (No force-unwrap: when the merged run never came, that is a failure above, not a crash of the whole run.)
        let firstOne = lines.firstIndex(of: "start 1")
        let firstThree = lines.firstIndex(of: "start 3")
        #expect(firstOne == nil || (firstThree != nil && firstOne! < firstThree!), "\(lines)")
    }
}
