import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon

/// i3blocks-contrib-style scripts, written for these tests, run by the driven daemon as an i3blocks user configures
/// them; each checks what the i3bar, i3blocks and waybar files say. The daemon reaps only its own children here
/// (`ProcessHygiene`), so the scripts run beside other tests' processes, and a persistent or repeating script's
/// restart waits on the daemon's clock. A persistent script's rate limits and read budget, on the wall clock, stay
/// end to end (`I3blocksScriptsTests`).
@Suite("i3blocks scripts, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenI3blocksScriptsTests {
    @Test func everyBlockPropertyReachesTheBars() throws {
        let scripts = try TestScripts(
            ["cpu_usage": "#!/bin/sh\necho \"$BLOCK_INSTANCE $LABEL_EXTRA 42%\"\n"])
        let driven = try DrivenDaemon(
            config: scripts.config(
                """
                widgets:
                  cpu:
                    kind: exec
                    command: [$DIR/cpu_usage]
                    output: [waybar, i3bar, i3blocks]
                    intent:
                      label: CPU
                      color: "#ff0000"
                      background: "#101010"
                      min_width: "CPU 100%"
                      align: center
                      separator: false
                      separator_block_width: 15
                      instance: cpu0
                      LABEL_EXTRA: avg
                """))
        #expect(
            driven.turns(until: "the first run") { driven.read("cpu.i3blocks") != nil && driven.hasTimeline("cpu") })
        #expect(
            driven.read("cpu.i3bar")
                == ##"{"full_text":"CPU cpu0 avg 42%","color":"#ff0000","urgent":false,"name":"widgetd","instance":"cpu","min_width":"CPU 100%","align":"center","separator":false,"separator_block_width":15,"markup":"none"}"##
                + "\n")
        // i3blocks drops backgrounds (1.4), so these files carry none; red reads on i3bar's black, so it goes out.
        #expect(driven.read("cpu.i3blocks") == "CPU cpu0 avg 42%\n\n#ff0000\n")
        #expect(driven.read("cpu.waybar") == #"{"text":"CPU cpu0 avg 42%","alt":"","class":["normal"]}"# + "\n")
    }

    @Test func theScriptsOwnLinesWinAndNoShortTextIsMadeUp() throws {
        let long = String(repeating: "wide ", count: 12) + "end"
        let scripts = try TestScripts(
            [
                "date_long": "#!/bin/sh\necho '\(long)'\n",
                "battery": "#!/bin/sh\necho 'BAT 80%'\necho '80%'\necho '#00ff00'\n",
            ])
        let driven = try DrivenDaemon(
            config: scripts.config(
                """
                widgets:
                  when:
                    kind: exec
                    command: [$DIR/date_long]
                    output: [waybar, i3bar, i3blocks]
                  small:
                    kind: exec
                    family: systemSmall
                    command: [$DIR/date_long]
                    output: [i3bar]
                  battery:
                    kind: exec
                    command: [$DIR/battery]
                    output: [waybar, i3bar, i3blocks]
                    intent:
                      color: "#ff0000"
                """))
        #expect(driven.turns(until: "the runs") { ["when", "small", "battery"].allSatisfy(driven.hasTimeline) })
        // No family: the whole text, as i3blocks shows it, and no short_text.
        #expect(
            driven.read("when.i3bar")
                == #"{"full_text":"\#(long)","urgent":false,"name":"widgetd","instance":"when","markup":"none"}"# + "\n"
        )
        #expect(driven.read("when.i3blocks") == long + "\n")
        #expect(driven.read("when.waybar") == #"{"text":"\#(long)","alt":"","class":["normal"]}"# + "\n")
        // A family named: cut to its width.
        #expect(driven.read("small.i3bar")?.contains(#""full_text":"wide wide wide wide wid…""#) == true)
        #expect(
            driven.read("battery.i3bar")?.contains(##""full_text":"BAT 80%","short_text":"80%","color":"#00ff00""##)
                == true)
        #expect(driven.read("battery.i3blocks") == "BAT 80%\n80%\n#00ff00\n")
        #expect(driven.read("battery.waybar") == #"{"text":"BAT 80%","alt":"80%","class":["normal"]}"# + "\n")
    }

    @Test func pangoMarkupPassesToI3barAndWaybarAndIsStrippedForI3blocksRaw() throws {
        let scripts = try TestScripts(
            [
                "systemctl": "#!/bin/sh\necho \"<span foreground='#00ff00'>nginx</span> &amp; <b>sshd</b>\"\n",
                "broken": "#!/bin/sh\necho '<b>half open'\n",
                "usb": "#!/bin/sh\necho \"<span color='#ff0000'>sda1 sdb1 sdc1 sdd1 sde1 sdf1</span>\"\n",
            ])
        let driven = try DrivenDaemon(
            config: scripts.config(
                """
                widgets:
                  units:
                    kind: exec
                    command: [$DIR/systemctl]
                    output: [waybar, i3bar, i3blocks]
                    intent: {markup: pango}
                  broken:
                    kind: exec
                    command: [$DIR/broken]
                    output: [i3bar]
                    intent: {markup: pango}
                  usb:
                    kind: exec
                    family: systemSmall
                    command: [$DIR/usb]
                    output: [i3bar]
                    intent: {markup: pango}
                """))
        #expect(driven.turns(until: "the runs") { ["units", "broken", "usb"].allSatisfy(driven.hasTimeline) })
        #expect(
            driven.read("units.i3bar")
                == #"{"full_text":"<span foreground='#00ff00'>nginx</span> &amp; <b>sshd</b>","urgent":false,"name":"widgetd","instance":"units","markup":"pango"}"#
                + "\n")
        #expect(driven.read("units.i3blocks") == "nginx & sshd\n")
        #expect(
            driven.read("units.waybar")
                == #"{"text":"<span foreground='#00ff00'>nginx</span> &amp; <b>sshd</b>","alt":"","class":["normal"]}"#
                + "\n")
        // Not well-formed: shown as text (i3bar told there is no markup), and logged.
        #expect(
            driven.read("broken.i3bar")
                == #"{"full_text":"<b>half open","urgent":false,"name":"widgetd","instance":"broken","markup":"none"}"#
                + "\n")
        #expect(driven.turns(until: "the log line") { driven.log.contains("broken: markup is not well-formed") })
        // A family cuts by what shows, and closes the tag.
        #expect(
            driven.read("usb.i3bar")?.hasPrefix(
                #"{"full_text":"<span color='#ff0000'>sda1 sdb1 sdc1 sdd1 sde…</span>""#)
                == true)
    }

    /// What a run printed is in the next run's environment, as i3blocks 1.5 keeps a block's printed keys: a script
    /// that keeps its state so (i3blocks-contrib's `timer_and_stopwatch`) counts on, each run an interval later.
    @Test func whatARunPrintedIsInTheNextRunsEnvironment() throws {
        let scripts = try TestScripts([
            "counter": #"""
            #!/bin/sh
            n=$(( ${n:-0} + 1 ))
            printf '{"full_text":"count %s, was %s","n":%s}\n' "$n" "${full_text:-nothing}" "$n"
            """#
        ])
        let driven = try DrivenDaemon(
            config: scripts.config(
                """
                widgets:
                  counter:
                    kind: exec
                    command: [$DIR/counter]
                    interval: 1s
                    format: json
                    output: [plain]
                """))
        #expect(driven.turns(until: "the first run") { driven.read("counter.plain") == "count 1, was nothing\n" })
        driven.advance(by: 1)
        #expect(
            driven.turns(until: "the second run") {
                driven.read("counter.plain") == "count 2, was count 1, was nothing\n"
            }
        )
        driven.advance(by: 1)
        #expect(
            driven.turns(until: "the third run") {
                driven.read("counter.plain") == "count 3, was count 2, was count 1, was nothing\n"
            }, "\(driven.read("counter.plain") ?? "")\n\(driven.log)")
    }

    /// What `pkill -RTMIN+10 widgetd` sends, handed to the daemon as its signalfd hands it.
    @Test func aSignalReloadsTheWidgetsThatNameIt() throws {
        let scripts = try TestScripts(["volume": TestScripts.countingRuns(in: "count") + #"echo "vol $n""#])
        let driven = try DrivenDaemon(
            config: scripts.config(
                """
                widgets:
                  volume:
                    kind: exec
                    command: [$DIR/volume]
                    signal: 10
                    output: [waybar, i3bar, i3blocks]
                """))
        #expect(driven.turns(until: "the first run") { driven.read("volume.i3blocks") == "vol 1\n" })
        driven.daemon.handleSignals([__libc_current_sigrtmin() + 10])
        #expect(driven.turns(until: "the reload the signal asked for") { driven.read("volume.i3blocks") == "vol 2\n" })
        #expect(driven.read("volume.i3bar")?.contains(#""full_text":"vol 2""#) == true)
        #expect(driven.read("volume.waybar") == #"{"text":"vol 2","alt":"","class":["normal"]}"# + "\n")
        // A signal no widget names changes nothing and stops nothing.
        driven.daemon.handleSignals([__libc_current_sigrtmin() + 11])
        #expect(
            driven.turns(until: "the signal's log line") { driven.log.contains("signal RTMIN+11: reloading nothing") })
        #expect(!driven.daemon.stopping)
        #expect(scripts.file("count") == "2\n")
    }

    @Test func aPersistentScriptShowsEachLineAndReadsClicksOnItsStandardInput() throws {
        let scripts = try TestScripts([
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
        ])
        let driven = try DrivenDaemon(
            config: scripts.config(
                """
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
                """))
        #expect(
            driven.turns(until: "the first lines") {
                driven.read("raw.i3blocks") == "P ready persist\n"
                    && driven.read("json.i3blocks") == "waiting\n\n#00ff00\n"
            })
        // Not killed at the timeout: the clock moved well past it, and the click proves it runs.
        driven.advance(by: 60)
        #expect(driven.command(["click", "raw", "--button", "3"]).status == 0)
        #expect(driven.turns(until: "the click's line") { driven.read("raw.i3blocks") == "P button 3\n" })
        #expect(
            driven.read("raw.i3bar")
                == #"{"full_text":"P button 3","urgent":false,"name":"widgetd","instance":"raw","markup":"none"}"#
                + "\n")
        #expect(driven.read("raw.waybar") == #"{"text":"P button 3","alt":"","class":["normal"]}"# + "\n")
        #expect(
            driven.command([
                "click", "json", "--button", "1", "--x", "7", "--width", "90", "--y", "3", "--height", "20",
                "--screen-x", "1500", "--screen-y", "1060", "--modifiers", "Shift,Mod4",
            ]).status == 0)
        let expected = "json/eth0 b1 at 7,3 in 90x20 (1500,1060) Shift+Mod4"
        #expect(
            driven.turns(until: "the JSON click's answer") { driven.read("json.i3blocks") == "\(expected)\nb1\n" })
        #expect(
            driven.read("json.i3bar")
                == #"{"full_text":"\#(expected)","short_text":"b1","urgent":false,"name":"widgetd","instance":"json","markup":"none"}"#
                + "\n")
        #expect(driven.read("json.waybar") == #"{"text":"\#(expected)","alt":"b1","class":["normal"]}"# + "\n")

        // A reload of a running persist widget is answered at once and starts nothing new, as in i3blocks.
        #expect(driven.commandTakingTurns(["reload", "raw", "--wait"]).status == 0)
        #expect(scripts.file("clicks.pid").split(separator: "\n").count == 1)

        // Removed from the config: its process group is stopped.
        let pid = try #require(scripts.pid("clicks.pid"))
        #expect(kill(pid, 0) == 0)
        try driven.editConfig("widgets:\n  other:\n    kind: clock\n")
        #expect(driven.turns(until: "the persistent script to stop") { kill(pid, 0) != 0 })
    }

    /// A click for a persist script that closed its standard input cannot reach it: the click's answer and the log say
    /// so, where both said it was sent.
    @Test func aClickForAPersistentScriptThatClosedItsInputIsAnsweredAsNotDelivered() throws {
        let scripts = try TestScripts(["deaf": "#!/bin/sh\nexec 0<&-\necho deaf\nexec sleep 1000\n"])
        let driven = try DrivenDaemon(
            config: scripts.config(
                "widgets:\n  deaf:\n    kind: exec\n    command: [$DIR/deaf]\n    interval: persist\n    output: [plain]\n"
            ))
        #expect(driven.turns(until: "the script's line") { driven.read("deaf.plain") == "deaf\n" })
        #expect(driven.writeToFIFO("click deaf 1 ack=deaf-click\n"))
        #expect(driven.turns(until: "the click's answer") { driven.acknowledgement("deaf-click") != nil })
        let answer = driven.acknowledgement("deaf-click") ?? ""
        #expect(!answer.hasPrefix("done"), "\(answer)")
        #expect(answer.contains("deaf: its persistent command closed its standard input"), "\(answer)")
        #expect(driven.log.contains("so it reads no clicks; click dropped"), "\(driven.log)")
        #expect(!driven.log.contains("click sent to its persistent command"), "\(driven.log)")
    }

    @Test func aChangedPersistentWidgetStopsItsCommandAndStartsANewOne() throws {
        let scripts = try TestScripts([
            "memory": "#!/bin/sh\necho $$ >> \"$(dirname \"$0\")/memory.pids\"\necho \"mem $$\"\nexec sleep 1000\n"
        ])
        // The same persistent widget before and after the edit, but for the intent the edit adds.
        func config(_ extra: String = "") -> String {
            scripts.config(
                """
                widgets:
                  memory:
                    kind: exec
                    command: [$DIR/memory]
                    interval: persist
                    output: [waybar, i3bar, i3blocks]

                """ + extra)
        }
        let driven = try DrivenDaemon(config: config())
        func pids() -> [pid_t] { scripts.file("memory.pids").split(separator: "\n").compactMap { pid_t($0) } }
        #expect(
            driven.turns(until: "the first command's line") {
                pids().count == 1 && driven.read("memory.i3blocks") == "mem \(pids()[0])\n"
            })
        let first = pids()[0]
        try driven.editConfig(config("    intent: {label: M}\n"))
        #expect(driven.turns(until: "a second command") { pids().count == 2 })
        let second = pids()[1]
        #expect(driven.turns(until: "the first command to stop") { kill(first, 0) != 0 })
        #expect(kill(second, 0) == 0)
        #expect(driven.turns(until: "the new line, labelled") { driven.read("memory.i3blocks") == "M mem \(second)\n" })
        #expect(driven.read("memory.i3bar")?.hasPrefix(#"{"full_text":"M mem \#(second)""#) == true)
        #expect(driven.read("memory.waybar") == #"{"text":"M mem \#(second)","alt":"","class":["normal"]}"# + "\n")
    }

    @Test func aClickDuringARunWaitsForItAndClicksMergeWithTheLastWinning() throws {
        let scripts = try TestScripts([
            // Keeps state in files, as scripts do: overlapping runs would interleave start and end in the log,
            // and the last button given stays shown, as a toggle's state does. Each run ends when the test lets it
            // through its gate (a line on a FIFO), so the clicks come while the first run goes on.
            "stateful": """
            #!/bin/sh
            dir="$(dirname "$0")"
            echo "start ${BLOCK_BUTTON:-none}" >> "$dir/runs.log"
            read -r line < "$dir/gate"
            echo "end" >> "$dir/runs.log"
            if [ -n "$BLOCK_BUTTON" ]; then echo "$BLOCK_BUTTON" > "$dir/last-button"; fi
            echo "button $(cat "$dir/last-button" 2>/dev/null || echo none)"
            """
        ])
        #expect(mkfifo(scripts.path("gate"), 0o600) == 0)
        // Read and write: opening it neither waits for the script nor loses a line between runs.
        let gate = open(scripts.path("gate"), O_RDWR | O_CLOEXEC)
        defer { close(gate) }
        let driven = try DrivenDaemon(
            config: scripts.config(
                """
                widgets:
                  stateful:
                    kind: exec
                    command: [$DIR/stateful]
                    interval: 2s
                    output: [waybar, i3bar, i3blocks]
                """))
        // Three clicks while the first run goes on: they wait, then merge into one run with the last button.
        for button in ["1", "2", "3"] {
            #expect(driven.command(["click", "stateful", "--button", button]).status == 0)
        }
        driven.settle()
        #expect(write(gate, "\n\n\n", 3) == 3)
        #expect(
            driven.turns(until: "the merged click's output") { driven.read("stateful.i3blocks") == "button 3\n" },
            "runs: \(scripts.file("runs.log"))\nlog: \(driven.log)")
        #expect(driven.read("stateful.i3bar")?.contains(#""full_text":"button 3""#) == true)
        #expect(driven.read("stateful.waybar") == #"{"text":"button 3","alt":"","class":["normal"]}"# + "\n")
        // Each click is answered with the merged run's result, and each answer counts as a reload at the time it is
        // taken in: the clock moves on once all three are in, or a late one would put the interval's run after it.
        #expect(driven.turns(until: "every click's answer") { driven.daemon.reloads.commandIntents == 0 })
        // Each says which button its run had: the last click's, never its own.
        #expect(driven.log.contains("stateful: click: ran with BLOCK_BUTTON=3"), "\(driven.log)")
        #expect(!driven.log.contains("ran with BLOCK_BUTTON=1"), "\(driven.log)")
        #expect(!driven.log.contains("ran with BLOCK_BUTTON=2"), "\(driven.log)")
        driven.advance(by: 2)
        #expect(
            driven.turns(until: "another interval run") {
                scripts.file("runs.log").components(separatedBy: "end").count > 3
            })
        // Every click ran, merged, each run after the one before it ended: the first run, the merged click's, the
        // interval's.
        #expect(scripts.file("runs.log") == "start none\nend\nstart 3\nend\nstart none\nend\n", "\(driven.log)")
    }

    /// A persistent script that exits is marked stale and started again after its pause, on the daemon's clock: not
    /// before the clock passed it.
    @Test func aPersistentScriptThatExitsIsMarkedStaleAndStartedAgain() throws {
        let scripts = try TestScripts([
            "flaky": TestScripts.countingRuns(in: "runs") + """
                echo "run $n"
                read -r line
                exit 3
                """
        ])
        let driven = try DrivenDaemon(
            config: scripts.config(
                """
                widgets:
                  flaky:
                    kind: exec
                    command: [$DIR/flaky]
                    interval: persist
                    output: [waybar, i3bar, i3blocks]
                """))
        #expect(driven.turns(until: "the first run") { driven.read("flaky.i3blocks") == "run 1\n" })
        // A click makes it read a line and exit.
        #expect(driven.command(["click", "flaky"]).status == 0)
        #expect(
            driven.turns(until: "the stale mark and the grey") {
                driven.read("flaky.waybar")?.contains(#""class":["stale"]"#) == true
                    && driven.read("flaky.i3blocks") == "run 1\n\n#888888\n"
            })
        #expect(driven.read("flaky.waybar")?.contains("exited with status 3; starting it again in 1 s") == true)
        driven.advance(by: 0.5)
        driven.turn(timeout: .milliseconds(100))
        #expect(scripts.file("runs") == "1\n", "started again before its pause was over")
        driven.advance(by: 0.5)
        #expect(driven.turns(until: "the second run, a second later") { driven.read("flaky.i3blocks") == "run 2\n" })
        #expect(driven.read("flaky.i3bar")?.contains(#""full_text":"run 2""#) == true)
        #expect(driven.read("flaky.waybar") == #"{"text":"run 2","alt":"","class":["normal"]}"# + "\n")
    }

    /// A repeat run's whole output is its entry when it exits, as i3blocks reads it: full text, short text and colour
    /// lines, and exit status 33 for urgent; the next run starts a second after this one started.
    @Test func aRepeatRunsWholeOutputIsItsEntryAndThirtyThreeIsUrgent() throws {
        let scripts = try TestScripts([
            "alert": """
            #!/bin/sh
            printf x >> "$(dirname "$0")/runs"
            echo "<b>full</b>"
            echo short
            echo '#FF0000'
            exit 33
            """
        ])
        let driven = try DrivenDaemon(
            config: scripts.config(
                """
                widgets:
                  alert:
                    kind: exec
                    command: [$DIR/alert]
                    interval: repeat
                    intent: {markup: pango}
                    output: [i3bar]
                """))
        #expect(
            driven.turns(until: "the entry") {
                driven.read("alert.i3bar")?.contains(#""full_text":"<b>full</b>""#) == true
            }, "\(driven.read("alert.i3bar") ?? "")\n\(driven.log)")
        let block = try #require(driven.read("alert.i3bar"))
        #expect(block.contains(#""short_text":"short""#), "\(block)")
        #expect(block.lowercased().contains(##""color":"#ff0000""##), "\(block)")
        #expect(block.contains(#""urgent":true"#), "\(block)")
        // Run again each second of the daemon's clock, each time the same whole entry; never a failure.
        for runs in ["xx", "xxx"] {
            driven.advance(by: 1)
            #expect(driven.turns(until: "run \(runs.count)") { scripts.file("runs") == runs })
        }
        driven.settle()
        #expect(!driven.log.contains("exited with status 33"), "\(driven.log)")
        #expect(driven.read("alert.i3bar") == block)
    }

    /// i3blocks' `interval=repeat`: a script that prints a line and exits is started again a second after it started,
    /// and its entry is never marked stale in between; a failing exit still is.
    @Test func aRepeatingScriptStartsAgainWithoutGoingStale() throws {
        let scripts = try TestScripts([
            "event": TestScripts.countingRuns(in: "events") + """
                echo "event $n"
                [ "$n" -lt 4 ] || exit 5
                """
        ])
        let driven = try DrivenDaemon(
            config: scripts.config(
                """
                widgets:
                  event:
                    kind: exec
                    command: [$DIR/event]
                    interval: repeat
                    output: [waybar, i3blocks]
                """))
        var shown: [String] = []
        for n in 1...3 {
            if n > 1 { driven.advance(by: 1) }
            #expect(
                driven.turns(until: "event \(n)") {
                    if let text = driven.read("event.waybar"), shown.last != text { shown.append(text) }
                    return driven.read("event.i3blocks") == "event \(n)\n"
                })
        }
        #expect(!shown.contains { $0.contains("stale") }, "\(shown)")
        #expect(!driven.log.contains("event: exited; starting it again"), "\(driven.log)")
        // The fourth run fails: that one is stale, as a persist command's exit is.
        driven.advance(by: 1)
        #expect(
            driven.turns(until: "the failure's stale mark") {
                driven.read("event.waybar")?.contains("exited with status 5; starting it again in 1 s") == true
            })
    }

    /// A persist command's bad lines are logged within the widget's limit (10 lines in 5 s), as a one-shot run's
    /// failures are: one bad JSON line every 50 ms was five log lines a second for good. The limit's window passes on
    /// the daemon's clock, which stands still here, so the whole flood falls in one window.
    @Test func aPersistCommandsBadLinesAreLoggedWithinTheLimit() throws {
        let scripts = try TestScripts([
            "bad": """
            #!/bin/sh
            while :; do printf x >> "$(dirname "$0")/printed"; echo '{bad'; sleep 0.05; done
            """
        ])
        let driven = try DrivenDaemon(
            config: scripts.config(
                """
                widgets:
                  bad:
                    kind: exec
                    command: [$DIR/bad]
                    interval: persist
                    format: json
                """))
        // Each line wakes a turn: the forty are given a time, not a count of turns.
        #expect(
            driven.turns(until: "forty bad lines", within: 30) { scripts.file("printed").count >= 40 },
            "\(driven.log)")
        let logged = driven.log.split(separator: "\n").filter { $0.contains("does not parse") }
        #expect(logged.count <= 11, "\(logged.count) lines: \(logged.suffix(3))")
        #expect(!logged.isEmpty)
    }
}
