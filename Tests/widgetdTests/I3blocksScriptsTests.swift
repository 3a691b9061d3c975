import Foundation
import Glibc
import TestSupport
import Testing

/// i3blocks-contrib-style scripts, written for these tests, run by the built daemon: a persistent script's rate
/// limits and read budget, on the wall clock, and its end with the daemon's stop. What the scripts show, their clicks,
/// restarts, repeats and the log limit on their bad lines are `DrivenI3blocksScriptsTests`' (the daemon in the test's
/// process).
@Suite("i3blocks scripts, end to end", .spawnsDaemons)
struct I3blocksScriptsTests {
    /// The scripts, and a daemon on `config` (its `$DIR` the scripts' directory) that keeps its files there too.
    final class Bench {
        let scripts: TestScripts
        let daemon: DaemonUnderTest

        init(scripts: [String: String], config: String) throws {
            self.scripts = try TestScripts(scripts)
            daemon = try DaemonUnderTest(config: self.scripts.config(config), reusing: self.scripts.directory)
        }

        // The daemon stops before the scripts' directory goes, with `scripts`.
        deinit { daemon.stop() }
    }

    @Test(.aheadInLine) func aFloodingPersistentScriptIsSlowedDownAndSlowsNoOtherWidget() async throws {
        let bench = try Bench(
            scripts: [
                "flood":
                    "#!/bin/sh\necho $$ > \"$(dirname \"$0\")/flood.pid\"\ni=0\nwhile :; do i=$((i+1)); echo \"tick $i\"; done\n",
                "counter": TestScripts.countingRuns(in: "count") + #"echo "n $n""#,
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
        let daemon = bench.daemon
        #expect(await daemon.waitFor("the flood to show") { daemon.read("flood.i3blocks")?.hasPrefix("tick ") == true })
        #expect(
            await daemon.waitFor("the rate limit's log line") {
                daemon.log.contains("flood: printed faster than 20 lines a second")
            }
        )
        // Other widgets answer as usual: each reload is written while the flood goes on.
        for expected in 2...4 {
            #expect(try await daemon.cli(["reload", "counter", "--wait"]).status == 0)
            #expect(daemon.read("counter.i3blocks") == "n \(expected)\n")
        }
        let first = daemon.read("flood.i3blocks")
        #expect(await daemon.waitFor("the flood's newest line") { daemon.read("flood.i3blocks") != first })
        // Past the limit the daemon stops reading until the second is over, so the script blocks on its full pipe
        // (where it ran flat out, and the daemon with it, reading lines only to skip them): seen blocked in write at
        // every sample for 200 ms. No event tells this, so /proc is sampled (`waitFor`'s pause), up to a deadline.
        let floodPID = try #require(bench.scripts.pid("flood.pid"))
        var blockedSince: ContinuousClock.Instant?
        #expect(
            await waitFor("the flooding script held back by its pipe for 200 ms", timeout: .seconds(5)) {
                let wchan = (try? String(contentsOfFile: "/proc/\(floodPID)/wchan", encoding: .utf8)) ?? ""
                guard wchan.contains("pipe_write") else {
                    blockedSince = nil
                    return false
                }
                let since = blockedSince ?? .now
                blockedSince = since
                return since.duration(to: .now) >= .milliseconds(200)
            })
        #expect(daemon.read("flood.i3bar")?.hasPrefix(#"{"full_text":"tick "#) == true)
        #expect(daemon.read("flood.waybar")?.hasPrefix(#"{"text":"tick "#) == true)
        // The daemon stops it when it stops.
        let pid = try #require(bench.scripts.pid("flood.pid"))
        daemon.stop()
        #expect(await waitFor("the flood to stop with the daemon") { kill(pid, 0) != 0 })
    }
}
