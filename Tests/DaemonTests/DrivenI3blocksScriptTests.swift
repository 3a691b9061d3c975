import Foundation
import Glibc
import TestSupport
import Testing

/// i3blocks-contrib-style scripts, written for these tests, run by the daemon in the test's process as an i3blocks user
/// configures them; each checks what the i3bar, i3blocks and waybar files say. Persistent scripts, signals, floods
/// and clicks during a run stay in widgetdTests' `I3blocksScriptsTests`.
@Suite("i3blocks scripts, on the driven daemon")
struct DrivenI3blocksScriptTests {
    /// A directory holding the scripts, and a driven daemon on `config` (its `$DIR` replaced by the directory).
    final class ScriptBench {
        let directory: TemporaryDirectory
        let driven: DrivenDaemon

        init(scripts: [String: String], config: String) throws {
            directory = try TemporaryDirectory()
            for (name, body) in scripts {
                let path = try directory.write(name, body)
                chmod(path, 0o755)
            }
            driven = try DrivenDaemon(config: config.replacingOccurrences(of: "$DIR", with: directory.url.path))
        }

        deinit {
            driven.stop()
            directory.remove()
        }
    }

    @Test func everyBlockPropertyReachesTheBars() throws {
        let bench = try ScriptBench(
            scripts: ["cpu_usage": "#!/bin/sh\necho \"$BLOCK_INSTANCE $LABEL_EXTRA 42%\"\n"],
            config: """
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
                """)
        let driven = bench.driven
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
        let bench = try ScriptBench(
            scripts: [
                "date_long": "#!/bin/sh\necho '\(long)'\n",
                "battery": "#!/bin/sh\necho 'BAT 80%'\necho '80%'\necho '#00ff00'\n",
            ],
            config: """
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
                """)
        let driven = bench.driven
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
        let bench = try ScriptBench(
            scripts: [
                "systemctl": "#!/bin/sh\necho \"<span foreground='#00ff00'>nginx</span> &amp; <b>sshd</b>\"\n",
                "broken": "#!/bin/sh\necho '<b>half open'\n",
                "usb": "#!/bin/sh\necho \"<span color='#ff0000'>sda1 sdb1 sdc1 sdd1 sde1 sdf1</span>\"\n",
            ],
            config: """
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
                """)
        let driven = bench.driven
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
    /// that keeps its state so (i3blocks-contrib's `timer_and_stopwatch`) counts on; it started from nothing each run.
    @Test func whatARunPrintedIsInTheNextRunsEnvironment() throws {
        let bench = try ScriptBench(
            scripts: [
                "counter": #"""
                #!/bin/sh
                n=$(( ${n:-0} + 1 ))
                printf '{"full_text":"count %s, was %s","n":%s}\n' "$n" "${full_text:-nothing}" "$n"
                """#
            ],
            config: """
                widgets:
                  counter:
                    kind: exec
                    command: [$DIR/counter]
                    interval: 1s
                    format: json
                    output: [plain]
                """)
        let driven = bench.driven
        // A run a second, as the clock moves.
        for run in 1...3 {
            if run > 1 { driven.advance(by: 1) }
            #expect(
                driven.turns(until: "run \(run)") { driven.read("counter.plain")?.hasPrefix("count \(run),") == true },
                "\(driven.read("counter.plain") ?? "")\n\(driven.log)")
        }
        #expect(driven.read("counter.plain") == "count 3, was count 2, was count 1, was nothing\n")
    }
}
