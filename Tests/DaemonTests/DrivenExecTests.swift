import Foundation
import Testing

/// The exec kind's scripts run by the daemon in the test's process (`DrivenDaemon`): what a script prints, its exit
/// status and a click's variables reach the outputs and the commands. Each turn waits for the script's answer and no
/// longer. What needs the daemon as a process of its own stays in widgetdTests' `ExecEndToEndTests`: a timeout killing
/// a hanging script, descriptors a command inherits, scripts ended with the daemon, a program left in the background.
@Suite("exec kind, on the driven daemon")
struct DrivenExecTests {
    @Test func anI3blocksScriptRunsUnchangedWithItsEnvironment() throws {
        let driven = try DrivenDaemon(
            config: """
                widgets:
                  cpu:
                    kind: exec
                    family: systemMedium
                    command: [sh, -c, 'echo "$LABEL$BLOCK_NAME $WIDGETD_PARAM_MAX_LOAD $WIDGETD_FAMILY $BLOCK_INTERVAL"; echo short; echo "#FF0000"; echo "#000000"']
                    interval: 30s
                    intent:
                      max-load: "0.8"
                      LABEL: "CPU "
                    output: [i3blocks, i3bar]

                """)
        // `LABEL` as i3blocks-contrib scripts read it, the parameter under widgetd's own name, the interval.
        #expect(
            driven.turns(until: "the script's output") {
                // No background line: i3blocks 1.4 drops it; the red reads on i3bar's black by itself.
                driven.read("cpu.i3blocks") == "CPU cpu 0.8 systemMedium 30\nshort\n#ff0000\n"
            }, "\(driven.log)")
        let block = try #require(driven.read("cpu.i3bar"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any])
        #expect(object["full_text"] as? String == "CPU cpu 0.8 systemMedium 30")
        #expect(object["color"] as? String == "#ff0000")
    }

    @Test func tenMegabytesOfOutputAreCappedAndLogged() throws {
        let driven = try DrivenDaemon(
            config:
                "widgets:\n  big:\n    kind: exec\n    family: systemSmall\n    command: [sh, -c, 'head -c 10000000 /dev/zero | tr \"\\\\000\" a']\n"
        )
        #expect(driven.turns(until: "the capped output") { driven.read("big.plain")?.hasPrefix("aaaa") == true })
        // The family, named, still cuts: 24 cells of systemSmall with its ellipsis, and "\n".
        #expect(driven.read("big.plain")?.count == 25)
        #expect(driven.turns(until: "the log line") { driven.log.contains("big: output cut at 64 KiB") })
    }

    /// JSON cut at the cap cannot parse; the failure says it was cut.
    @Test func jsonCutAtTheCapSaysSo() throws {
        let driven = try DrivenDaemon(
            config:
                "widgets:\n  big:\n    kind: exec\n    format: json\n    command: [python3, -c, 'print(\"{\\\"full_text\\\": \\\"\" + \"a\" * 100000 + \"\\\"}\")']\n"
        )
        #expect(
            driven.turns(until: "the failure") {
                driven.log.contains("printed JSON that does not parse") && driven.log.contains("(output cut at 64 KiB")
            }, "\(driven.log)")
    }

    @Test func exitStatus33IsUrgent() throws {
        let driven = try DrivenDaemon(
            config:
                "widgets:\n  battery:\n    kind: exec\n    command: [sh, -c, 'echo 5%; exit 33']\n    output: [i3bar, waybar]\n"
        )
        #expect(driven.turns(until: "the first run") { driven.hasTimeline("battery") }, "\(driven.log)")
        #expect(driven.read("battery.i3bar")?.contains("\"urgent\":true") == true)
        #expect(driven.read("battery.waybar")?.contains("\"urgent\"") == true)
        // Passed on to an i3blocks `interval=` block as i3blocks takes it: exit status 33.
        let i3blocks = driven.command(["show", "battery", "--format", "i3blocks"])
        #expect(i3blocks.status == 33, "\(i3blocks.stderr)")
        #expect(i3blocks.stdout == "5%\n")
        #expect(driven.command(["show", "battery", "--format", "plain"]).status == 0)
    }

    @Test func aClickRunsTheCommandWithBlockButton() throws {
        let driven = try DrivenDaemon(
            config:
                "widgets:\n  clicky:\n    kind: exec\n    command: [sh, -c, 'echo \"b=$BLOCK_BUTTON x=$BLOCK_X\"']\n")
        #expect(driven.turns(until: "the first run") { driven.read("clicky.plain") == "b= x=\n" }, "\(driven.log)")
        // BLOCK_X is i3bar's x, on the screen, as i3blocks sets it; the position in the block is relative_x.
        let click = driven.commandTakingTurns([
            "click", "clicky", "--button", "3", "--x", "12", "--width", "80", "--screen-x", "1200", "--wait",
        ])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(driven.read("clicky.plain") == "b=3 x=1200\n")
    }
}
