import Foundation
import TestSupport
import Testing

/// The exec kind, run by the built daemon on real scripts, where the daemon's own process matters: a hanging script
/// killed at its timeout, scripts ended with the daemon, the descriptors a command inherits, a program left in the
/// background. What a script prints, its exit status and a click's variables are `DrivenExecTests`'; what the daemon
/// does with a timeline's dated entries and a failed reload, whatever the kind, is `DrivenTimelineTests`' (the daemon in
/// the test's process, on a driven clock).
@Suite("exec kind, end to end", .spawnsDaemons)
struct ExecEndToEndTests {
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

}
