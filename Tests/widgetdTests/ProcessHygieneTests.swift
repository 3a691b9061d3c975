import Foundation
import Testing

/// Processes an exec script moves out of its process group (`setsid`) do not outlive a timeout or the daemon.
@Suite("process hygiene, end to end", .spawnsDaemons)
struct ProcessHygieneTests {
    @Test func aSetsidGrandchildDiesWithTheTimeoutKill() async throws {
        let daemon = try DaemonUnderTest(
            config: """
                widgets:
                  escaper:
                    kind: exec
                    command: [sh, -c, 'setsid sh -c "cut -d\\  -f6 /proc/\\$\\$/stat > escaped.sid; exec sleep 300" >/dev/null 2>&1 & echo $! > escaped.pid; sleep 300']
                    timeout: 1s

                """)
        let pidPath = daemon.directory.url.path + "/escaped.pid"
        var escaped: pid_t = 0
        #expect(
            await waitFor("the script to start its grandchild") {
                escaped = readPID(pidPath) ?? 0
                return escaped > 0
            })
        try #require(escaped > 0)
        // It really left the script's process group: the group kill alone would miss it. The grandchild writes down
        // its session itself, since the timeout may kill it before this test could look.
        let sidPath = daemon.directory.url.path + "/escaped.sid"
        #expect(await waitFor("the grandchild's own session") { readPID(sidPath) == escaped })
        #expect(await daemon.waitFor("the timeout") { daemon.log.contains("timed out after 1 s") })
        #expect(await waitFor("the escaped grandchild to be gone") { !isRunning(escaped) })
    }

    @Test func backgroundProcessesOfAFinishedRunEndWithTheDaemon() async throws {
        // The first escapes by setsid and starts a second that escapes again: only once the first dies is the
        // second an orphan of the daemon's, so the daemon must look again after killing.
        let script =
            "setsid sh -c 'setsid sleep 300 >/dev/null 2>&1 & echo $! > deeper.pid; exec sleep 300' >/dev/null 2>&1 & "
            + "echo $! > escaped.pid; echo ready"
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  starter:\n    kind: exec\n    command: [sh, -c, \"\(script)\"]\n")
        let directory = daemon.directory.url.path
        #expect(await daemon.waitFor("the run's output") { daemon.read("starter.plain") == "ready\n" })
        var pids: [pid_t] = []
        #expect(
            await waitFor("both background pids") {
                pids = [readPID(directory + "/escaped.pid"), readPID(directory + "/deeper.pid")].compactMap { $0 }
                return pids.count == 2
            })
        // The run is over, and they run on (i3blocks leaves them too) …
        for pid in pids { #expect(isRunning(pid)) }
        // … until the daemon stops.
        daemon.stop()
        for pid in pids { #expect(await waitFor("process \(pid) to be gone") { !isRunning(pid) }) }
    }

    /// A timeout ends what its own run started, not what an earlier run of the same widget left in the background.
    @Test func aTimeoutLeavesEarlierRunsBackgroundProcessesAlone() async throws {
        let script =
            "if [ -z \\\"$BLOCK_BUTTON\\\" ]; then setsid sleep 300 >/dev/null 2>&1 & echo $! > earlier.pid; echo ready; "
            + "else setsid sleep 300 >/dev/null 2>&1 & echo $! > later.pid; sleep 300; fi"
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  starter:\n    kind: exec\n    command: [sh, -c, \"\(script)\"]\n    timeout: 1s\n")
        let directory = daemon.directory.url.path
        #expect(await daemon.waitFor("the first run") { daemon.read("starter.plain") == "ready\n" }, "\(daemon.log)")
        let earlier = try #require(readPID(directory + "/earlier.pid"))
        #expect(try await daemon.cli(["click", "starter", "--button", "1"]).status == 0)
        #expect(await daemon.waitFor("the click's timeout") { daemon.log.contains("timed out after 1 s") })
        let later = try #require(readPID(directory + "/later.pid"))
        #expect(await waitFor("the click run's escaped process to be gone") { !isRunning(later) })
        #expect(isRunning(earlier), "the first run's background process was ended by the second run's timeout")
    }

    @Test func aRemovedWidgetTakesItsBackgroundProcessesWithIt() async throws {
        let command = "command: [sh, -c, 'setsid sleep 300 >/dev/null 2>&1 & echo $! > escaped.pid; echo ready']"
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  starter:\n    kind: exec\n    \(command)\n  other:\n    kind: quotes\n")
        let pidPath = daemon.directory.url.path + "/escaped.pid"
        #expect(await daemon.waitFor("the run's output") { daemon.read("starter.plain") == "ready\n" })
        let escaped = try #require(readPID(pidPath))
        #expect(isRunning(escaped))
        try daemon.editConfig("widgets:\n  other:\n    kind: quotes\n")
        #expect(await waitFor("the escaped process to be gone") { !isRunning(escaped) })
    }

    @Test func aPersistScriptsEscapedChildrenEndWithTheDaemon() async throws {
        // A persist script keeps running and prints a line; what it starts with setsid leaves its process group,
        // which the daemon kills when it stops, so only the spawn's tag traces it.
        let script = "setsid sleep 300 >/dev/null 2>&1 & echo $! > escaped.pid; echo ready; exec sleep 300"
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  keeper:\n    kind: exec\n    interval: persist\n    command: [sh, -c, \"\(script)\"]\n"
        )
        let pidPath = daemon.directory.url.path + "/escaped.pid"
        #expect(await daemon.waitFor("the persist script's line") { daemon.read("keeper.plain") == "ready\n" })
        let escaped = try #require(readPID(pidPath))
        #expect(await waitFor("the child's own session") { session(of: escaped) == escaped })
        #expect(isRunning(escaped))
        daemon.stop()
        #expect(await waitFor("the escaped child to be gone") { !isRunning(escaped) })
    }
}

private func readPID(_ path: String) -> pid_t? {
    (try? String(contentsOfFile: path, encoding: .utf8)).flatMap {
        pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// The fields after `(comm)` in `/proc/PID/stat`: state, ppid, pgrp, session, …
private func statFields(_ pid: pid_t) -> [Substring]? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = text.lastIndex(of: ")")
    else { return nil }
    return text[text.index(after: close)...].split(separator: " ")
}

/// Alive and not a zombie waiting for its parent.
private func isRunning(_ pid: pid_t) -> Bool {
    guard let fields = statFields(pid) else { return false }
    return fields.first != "Z" && fields.first != "X"
}

private func session(of pid: pid_t) -> pid_t? {
    statFields(pid).flatMap { $0.count > 3 ? pid_t($0[3]) : nil }
}
