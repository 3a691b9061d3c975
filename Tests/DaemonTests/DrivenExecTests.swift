import Foundation
import Glibc
import TestSupport
import Testing

/// The exec kind's scripts run by the driven daemon in the test's process: the environment i3blocks scripts read,
/// the output's cap, exit status 33, a click's `BLOCK_BUTTON`, what a run leaves in the background. The daemon reaps
/// only its own children here (`ProcessHygiene` leaves the test process's other children alone), so the scripts run
/// beside other tests' processes. A timeout's kill and a stop ending every script stay end to end
/// (`ExecEndToEndTests`): they wait for the wall clock and need the daemon's own process.
@Suite("exec kind, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenExecTests {
    /// A driven daemon with one exec widget, `name`, that runs `command`; `options` are the widget's other lines
    /// (`output: [i3bar]`). Each word goes into the YAML as a JSON string, which YAML reads as it is, so a shell line
    /// is written here as the shell takes it.
    private static func daemon(_ name: String, running command: [String], _ options: String...) throws
        -> DrivenDaemon
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let words = try command.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        let lines =
            ["widgets:", "  \(name):", "    kind: exec", "    command: [\(words.joined(separator: ", "))]"]
            + options.map { "    " + $0 }
        return try DrivenDaemon(config: lines.joined(separator: "\n") + "\n")
    }

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
        // `LABEL` as i3blocks-contrib scripts read it, the parameter under widgetd's own name, the interval; no
        // background line: i3blocks 1.4 drops it, and the red reads on i3bar's black by itself.
        #expect(
            driven.turns(until: "the script's output") {
                driven.read("cpu.i3blocks") == "CPU cpu 0.8 systemMedium 30\nshort\n#ff0000\n"
                    && driven.read("cpu.i3bar")?.contains("cpu 0.8") == true
            })
        let block = try #require(driven.read("cpu.i3bar"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any])
        #expect(object["full_text"] as? String == "CPU cpu 0.8 systemMedium 30")
        #expect(object["color"] as? String == "#ff0000")
    }

    /// The daemon's descriptors (the test process holds many more) are closed in the child.
    @Test func aCommandInheritsNoDescriptorButItsThree() throws {
        let driven = try Self.daemon(
            "fds",
            running: [
                "python3", "-c",
                "import os; fds = [int(f) for f in os.listdir('/proc/self/fd')]; "
                    + "print(*sorted(f for f in fds if os.path.exists('/proc/self/fd/%d' % f)))",
            ])
        #expect(driven.turns(until: "the listing") { driven.read("fds.plain")?.hasPrefix("0") == true })
        #expect(driven.read("fds.plain") == "0 1 2\n")
    }

    @Test func tenMegabytesOfOutputAreCappedAndLogged() throws {
        let driven = try Self.daemon(
            "big", running: ["sh", "-c", #"head -c 10000000 /dev/zero | tr "\\000" a"#], "family: systemSmall")
        // Ten megabytes through `tr` take their time on a loaded machine: up to a minute.
        #expect(
            driven.turns(until: "the capped output", within: 60) {
                driven.read("big.plain")?.hasPrefix("aaaa") == true
            },
            "\(driven.log)")
        // The family, named, still cuts: 24 cells of systemSmall with its ellipsis, and "\n".
        #expect(driven.read("big.plain")?.count == 25)
        #expect(driven.turns(until: "the log line") { driven.log.contains("big: output cut at 64 KiB") })
    }

    /// JSON cut at the cap cannot parse; the failure says it was cut.
    @Test func jsonCutAtTheCapSaysSo() throws {
        let driven = try Self.daemon(
            "big", running: ["python3", "-c", #"print("{\"full_text\": \"" + "a" * 100000 + "\"}")"#], "format: json")
        #expect(
            driven.turns(until: "the failure") {
                driven.log.contains("printed JSON that does not parse") && driven.log.contains("(output cut at 64 KiB")
            }, "\(driven.log)")
    }

    /// A persistent script's line that cannot be shown is the widget's last error, which `list` shows, and its last
    /// good entry stays until the next good line clears the error. It was only logged: `list` showed a script
    /// printing bad JSON for ever as fine.
    @Test func aPersistentScriptsBadLineIsItsLastErrorUntilAGoodOne() throws {
        let triggers = try TemporaryDirectory()
        defer { triggers.remove() }
        let wait = { (name: String) in "while [ ! -e '\(triggers.url.path)/\(name)' ]; do sleep 0.02; done; " }
        let script =
            #"echo '{"full_text": "good"}'; "# + wait("bad") + "echo yes; " + wait("again")
            + #"echo '{"full_text": "again"}'; exec sleep 1000"#
        let driven = try Self.daemon("feed", running: ["sh", "-c", script], "interval: persist", "format: json")
        let lastError = { driven.command(["list"]).stdout.split(separator: "\n").last { $0.hasPrefix("feed ") } ?? "" }
        #expect(driven.turns(until: "the first line") { driven.read("feed.plain") == "good\n" }, "\(driven.log)")
        #expect(!lastError().contains("does not parse"))
        _ = try triggers.write("bad", "")
        #expect(
            driven.turns(until: "the bad line's error") { lastError().contains("printed JSON that does not parse") },
            "\(driven.log)")
        #expect(driven.read("feed.plain") == "good\n", "the last good entry stays")
        _ = try triggers.write("again", "")
        #expect(driven.turns(until: "the next good line") { driven.read("feed.plain") == "again\n" }, "\(driven.log)")
        #expect(!lastError().contains("does not parse"), "\(lastError())")
    }

    /// A click that opens an application in the background (`pavucontrol &`) without redirecting its output: the run
    /// ends when the script exits, as under i3blocks, with no timeout, and the application keeps running.
    @Test func aProgramLeftInTheBackgroundWithTheOutputDoesNotHoldTheRun() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pidFile = directory.url.path + "/app.pid"
        let driven = try Self.daemon(
            "app", running: ["sh", "-c", #"echo "open $BLOCK_BUTTON"; sleep 60 & echo $! > "# + pidFile], "timeout: 3s")
        defer {
            if let pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap({
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }) {
                kill(pid, SIGKILL)
            }
        }
        #expect(driven.turns(until: "the first run") { driven.read("app.plain") == "open \n" }, "\(driven.log)")
        let click = driven.commandTakingTurns(["click", "app", "--button", "1", "--wait"])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(driven.read("app.plain") == "open 1\n")
        #expect(!driven.log.contains("timed out"), "\(driven.log)")
        let pid = try #require(
            Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) == 0, "the application was ended with its run")
    }

    @Test func exitStatus33IsUrgent() throws {
        let driven = try Self.daemon("battery", running: ["sh", "-c", "echo 5%; exit 33"], "output: [i3bar, waybar]")
        #expect(
            driven.turns(until: "the urgent block and class") {
                driven.read("battery.i3bar")?.contains("\"urgent\":true") == true
                    && driven.read("battery.waybar")?.contains("\"urgent\"") == true
            })
        // Passed on to an i3blocks `interval=` block as i3blocks takes it: exit status 33.
        let i3blocks = driven.command(["show", "battery", "--format", "i3blocks"])
        #expect(i3blocks.status == 33, "\(i3blocks.stderr)")
        #expect(i3blocks.stdout == "5%\n")
        #expect(driven.command(["show", "battery", "--format", "plain"]).status == 0)
    }

    @Test func aClickRunsTheCommandWithBlockButton() throws {
        let driven = try Self.daemon("clicky", running: ["sh", "-c", #"echo "b=$BLOCK_BUTTON x=$BLOCK_X""#])
        #expect(driven.turns(until: "the first run") { driven.read("clicky.plain") == "b= x=\n" })
        // BLOCK_X is i3bar's x, on the screen, as i3blocks sets it; the position in the block is relative_x.
        let click = driven.commandTakingTurns([
            "click", "clicky", "--button", "3", "--x", "12", "--width", "80", "--screen-x", "1200", "--wait",
        ])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(driven.read("clicky.plain") == "b=3 x=1200\n")
    }
}
