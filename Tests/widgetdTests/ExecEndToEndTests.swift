import Foundation
import TestSupport
import Testing

/// The exec kind, run by the built daemon on real scripts: a timeout's kill on the wall clock, and a stop ending every
/// script still running. What a script is given and what its output shows are `DrivenExecTests`' (the daemon in the
/// test's process); what the daemon does with a timeline's dated entries and a failed reload, whatever the kind,
/// `DrivenTimelineTests`'.
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
                (try? daemon.cliBlocking(["show", "stuck", "--format", "waybar"]))?.stdout.contains(
                    #""class":["stale""#)
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
        let reload = try await daemon.cli(["reload", "quote", "--wait", "--timeout", "5"])
        #expect(reload.status == 0, "\(reload.stderr)")
        #expect(daemon.read("quote.plain") != before)
        #expect(try runWidgetd(["motivations", "add", "Keep going."], environment: daemon.environment).status == 0)
        #expect(await daemon.waitFor("the motivation") { daemon.read("motivation.plain") == "☆ Keep going.\n" })
        let click = try await daemon.cli(["click", "motivation", "--wait"])
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
}
