import Foundation
import TestSupport
import Testing

/// The exec kind, run by the built daemon on real scripts. What the daemon does with a timeline's dated entries and a
/// failed reload, whatever the kind, is `DrivenTimelineTests`' (the daemon in the test's process, on a driven clock).
@Suite("exec kind, end to end", .spawnsDaemons)
struct ExecEndToEndTests {
    @Test func anI3blocksScriptRunsUnchangedWithItsEnvironment() async throws {
        let daemon = try DaemonUnderTest(
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
            await waitFor("the script's output") {
                // No background line: i3blocks 1.4 drops it; the red reads on i3bar's black by itself.
                daemon.read("cpu.i3blocks") == "CPU cpu 0.8 systemMedium 30\nshort\n#ff0000\n"
            })
        // The formats are written one after another: wait for the second too.
        #expect(await daemon.waitFor("the i3bar file") { daemon.read("cpu.i3bar")?.contains("cpu 0.8") == true })
        let block = try #require(daemon.read("cpu.i3bar"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any])
        #expect(object["full_text"] as? String == "CPU cpu 0.8 systemMedium 30")
        #expect(object["color"] as? String == "#ff0000")
    }

    @Test func aHangingScriptIsKilledAtItsTimeoutGoesStaleAndOthersCarryOn() async throws {
        let daemon = try DaemonUnderTest(
            config: """
                widgets:
                  stuck:
                    kind: exec
                    command: [sh, -c, 'echo $$ > pid; sleep 100']
                    timeout: 300ms
                  fine:
                    kind: exec
                    command: [echo, fine]

                """)
        #expect(await daemon.waitFor("the healthy widget") { daemon.read("fine.plain") == "fine\n" })
        #expect(
            await daemon.waitFor("the timeout") {
                daemon.log.contains("stuck: timed out after 300 ms; its processes were killed")
            })
        #expect(
            await waitFor("the stale mark") {
                (try? daemon.cli(["show", "stuck", "--format", "waybar"]))?.stdout.contains(#""class":["stale""#)
                    == true
            })
        let pidText = try String(contentsOfFile: daemon.directory.url.path + "/pid", encoding: .utf8)
        let pid = try #require(Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(await waitFor("the script to be gone") { kill(pid, 0) != 0 })
    }

    @Test func hangingScriptsHoldUpNoOtherWidget() async throws {
        // More hanging scripts than the in-process kinds have threads: each command gets a thread of its own.
        let hanging = (0..<6).map {
            "  slow\($0):\n    kind: exec\n    command: [sh, -c, 'echo $$ >> pids; exec sleep 20']\n    timeout: 60s\n"
        }
        let daemon = try DaemonUnderTest(
            config: "widgets:\n" + hanging.joined()
                + "  quote:\n    kind: quotes\n  motivation:\n    kind: motivations\n")
        #expect(await daemon.waitFor("the quote") { daemon.read("quote.plain") != nil })
        let before = daemon.read("quote.plain")
        let reload = try daemon.cli(["reload", "quote", "--wait", "--timeout", "5"])
        #expect(reload.status == 0, "\(reload.stderr)")
        #expect(daemon.read("quote.plain") != before)
        #expect(try runWidgetd(["motivations", "add", "Keep going."], environment: daemon.environment).status == 0)
        #expect(await daemon.waitFor("the motivation") { daemon.read("motivation.plain") == "☆ Keep going.\n" })
        let click = try daemon.cli(["click", "motivation", "--wait"])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(daemon.read("motivation.plain") == "★ Keep going.\n")

        // A daemon that stops ends the commands still running, as i3blocks does with its blocks.
        let pidsPath = daemon.directory.url.path + "/pids"
        var pids: [pid_t] = []
        #expect(
            await waitFor("every script started") {
                pids = ((try? String(contentsOfFile: pidsPath, encoding: .utf8)) ?? "").split(separator: "\n")
                    .compactMap { pid_t($0) }
                return pids.count == 6
            })
        daemon.stop()
        #expect(await waitFor("the scripts to be gone") { pids.allSatisfy { kill($0, 0) != 0 } })
    }

    @Test func aCommandInheritsNoDescriptorButItsThree() async throws {
        let daemon = try DaemonUnderTest(
            config:
                "widgets:\n  fds:\n    kind: exec\n    command: [python3, -c, \"import os; fds = [int(f) for f in os.listdir('/proc/self/fd')]; print(*sorted(f for f in fds if os.path.exists('/proc/self/fd/%d' % f)))\"]\n"
        )
        #expect(await daemon.waitFor("the listing") { daemon.read("fds.plain")?.hasPrefix("0") == true })
        #expect(daemon.read("fds.plain") == "0 1 2\n")
    }

    @Test func tenMegabytesOfOutputAreCappedAndLogged() async throws {
        let daemon = try DaemonUnderTest(
            config:
                "widgets:\n  big:\n    kind: exec\n    family: systemSmall\n    command: [sh, -c, 'head -c 10000000 /dev/zero | tr \"\\\\000\" a']\n"
        )
        #expect(await daemon.waitFor("the capped output") { daemon.read("big.plain")?.hasPrefix("aaaa") == true })
        // The family, named, still cuts: 24 cells of systemSmall with its ellipsis, and "\n".
        #expect(daemon.read("big.plain")?.count == 25)
        #expect(await daemon.waitFor("the log line") { daemon.log.contains("big: output cut at 64 KiB") })
    }

    /// JSON cut at the cap cannot parse; the failure says it was cut, and the widget keeps its last entry.
    @Test func jsonCutAtTheCapSaysSo() async throws {
        let daemon = try DaemonUnderTest(
            config:
                "widgets:\n  big:\n    kind: exec\n    format: json\n    command: [python3, -c, 'print(\"{\\\"full_text\\\": \\\"\" + \"a\" * 100000 + \"\\\"}\")']\n"
        )
        #expect(
            await daemon.waitFor("the failure") {
                daemon.log.contains("printed JSON that does not parse") && daemon.log.contains("(output cut at 64 KiB")
            }, "\(daemon.log)")
    }

    /// A click that opens an application in the background (`pavucontrol &`) without redirecting its output: the run
    /// ends when the script exits, as under i3blocks, with no timeout, and the application keeps running.
    @Test func aProgramLeftInTheBackgroundWithTheOutputDoesNotHoldTheRun() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pidFile = directory.url.path + "/app.pid"
        let daemon = try DaemonUnderTest(
            config:
                "widgets:\n  app:\n    kind: exec\n    command: [sh, -c, 'echo \"open $BLOCK_BUTTON\"; sleep 60 & echo $! > \(pidFile)']\n    timeout: 3s\n"
        )
        defer {
            if let pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap({
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }) {
                kill(pid, SIGKILL)
            }
        }
        #expect(await daemon.waitFor("the first run") { daemon.read("app.plain") == "open \n" }, "\(daemon.log)")
        let click = try daemon.cli(["click", "app", "--button", "1", "--wait"])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(daemon.read("app.plain") == "open 1\n")
        #expect(!daemon.log.contains("timed out"), "\(daemon.log)")
        let pid = try #require(
            Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) == 0, "the application was ended with its run")
    }

    @Test func exitStatus33IsUrgent() async throws {
        let daemon = try DaemonUnderTest(
            config:
                "widgets:\n  battery:\n    kind: exec\n    command: [sh, -c, 'echo 5%; exit 33']\n    output: [i3bar, waybar]\n"
        )
        #expect(
            await daemon.waitFor("the urgent block") {
                daemon.read("battery.i3bar")?.contains("\"urgent\":true") == true
            })
        #expect(
            await daemon.waitFor("the urgent class") { daemon.read("battery.waybar")?.contains("\"urgent\"") == true })
        // Passed on to an i3blocks `interval=` block as i3blocks takes it: exit status 33.
        let i3blocks = try daemon.cli(["show", "battery", "--format", "i3blocks"])
        #expect(i3blocks.status == 33, "\(i3blocks.stderr)")
        #expect(i3blocks.stdout == "5%\n")
        #expect(try daemon.cli(["show", "battery", "--format", "plain"]).status == 0)
    }

    @Test func aClickRunsTheCommandWithBlockButton() async throws {
        let daemon = try DaemonUnderTest(
            config:
                "widgets:\n  clicky:\n    kind: exec\n    command: [sh, -c, 'echo \"b=$BLOCK_BUTTON x=$BLOCK_X\"']\n")
        #expect(await daemon.waitFor("the first run") { daemon.read("clicky.plain") == "b= x=\n" })
        // BLOCK_X is i3bar's x, on the screen, as i3blocks sets it; the position in the block is relative_x.
        #expect(
            try daemon.cli([
                "click", "clicky", "--button", "3", "--x", "12", "--width", "80", "--screen-x", "1200", "--wait",
            ]).status == 0)
        #expect(daemon.read("clicky.plain") == "b=3 x=1200\n")
    }
}
