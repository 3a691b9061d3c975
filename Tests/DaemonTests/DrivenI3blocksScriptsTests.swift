import Foundation
import Glibc
import Testing

@testable import Daemon

/// i3blocks-contrib-style scripts, written for these tests, run by the driven daemon as an i3blocks user configures
/// them; each checks what the i3bar, i3blocks and waybar files say. The daemon reaps only its own children here
/// (`ProcessHygiene`), so the scripts run beside other tests' processes. Persistent and repeating scripts, whose
/// restarts wait on the wall clock, stay end to end (`I3blocksScriptsTests`).
@Suite("i3blocks scripts, on the driven daemon")
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
        let scripts = try TestScripts([
            "volume": """
            #!/bin/sh
            f="$(dirname "$0")/count"; n=$(( $(cat "$f" 2>/dev/null || echo 0) + 1 )); echo $n > "$f"; echo "vol $n"
            """
        ])
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
}
