import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 38, item 5: a persist command or a plugin is supervised by its process, not by its pipe. One that exited
/// while a child it started kept its standard output open stayed a zombie, shown as running, its requests timing out
/// for ever; a plugin that said hello and then never answered was never restarted.
@Suite("supervision by process", .spawnsDaemons)
struct SupervisionTests {
    @Test func aPersistCommandWhoseChildKeepsItsOutputIsStartedAgainWhenItExits() async throws {
        let daemon = try DaemonUnderTest(
            config: """
                widgets:
                  keeper:
                    kind: exec
                    interval: persist
                    command: [sh, -c, 'sleep 1000 & echo "$$ $!"']
                    output: [plain]

                """)
        /// The script's pid and its background child's, from the line it printed.
        func shown() -> (script: pid_t, child: pid_t)? {
            let words = (daemon.read("keeper.plain") ?? "").split(whereSeparator: \.isWhitespace).compactMap {
                pid_t($0)
            }
            return words.count == 2 ? (words[0], words[1]) : nil
        }
        #expect(await daemon.waitFor("the first run's line") { shown() != nil }, "\(daemon.log)")
        let first = try #require(shown())
        #expect(
            await daemon.waitFor("a second run's line") { shown().map { $0.script != first.script } == true },
            "\(daemon.log)")
        #expect(daemon.log.contains("keeper: exited; starting it again in 1 s"), "\(daemon.log)")
        // Reaped, and what it left in its group ended and reaped with it.
        #expect(await waitFor("the first script to be gone") { !exists(first.script) })
        #expect(await waitFor("its background child to be gone") { !exists(first.child) })
    }

    @Test func aPluginWhoseChildKeepsItsOutputIsStartedAgainWhenItExits() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let state = directory.url.path
        let script = try writeFakePlugin(in: directory)
        let daemon = try DaemonUnderTest(
            config: """
                plugins:
                  fake: [/usr/bin/python3, \(script), orphan, fake, \(state)]
                widgets:
                  w:
                    kind: fake
                    output: [plain]
                """)
        func shownPID() -> pid_t? {
            (daemon.read("w.plain") ?? "").firstMatch(of: /pid=([0-9]+)/).flatMap { pid_t($0.1) }
        }
        #expect(await daemon.waitFor("the first answer") { shownPID() != nil }, "\(daemon.log)")
        let first = try #require(shownPID())
        #expect(
            await daemon.waitFor("the crash in the log") {
                daemon.log.contains("plugin fake: exited; starting it again")
            },
            "\(daemon.log)")
        #expect(
            await daemon.waitFor("a new process's answer") { shownPID().map { $0 != first } == true }, "\(daemon.log)")
        let orphans = try String(contentsOfFile: state + "/orphans", encoding: .utf8).split(separator: "\n")
        let orphan = try #require(orphans.first.flatMap { pid_t($0) })
        #expect(await waitFor("the first plugin process to be gone") { !exists(first) })
        #expect(await waitFor("the child it left to be gone") { !exists(orphan) })
    }

    @Test func aPluginThatStopsAnsweringIsRestartedAndSaysWhy() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = try writeFakePlugin(in: directory)
        // Three widgets: their first requests, in flight together, pass their deadlines together.
        let widgets = ["a", "b", "c"].map { "  \($0):\n    kind: fake\n    timeout: 300ms\n    output: [plain]\n" }
        let daemon = try DaemonUnderTest(
            config: """
                plugins:
                  fake: [/usr/bin/python3, \(script), hang, fake, \(directory.url.path)]
                widgets:

                """ + widgets.joined())
        let reason = "plugin fake: restarted: did not answer in time 3 times in a row"
        #expect(await daemon.waitFor("the restart") { daemon.log.contains(reason) }, "\(daemon.log)")
        let statusPath = daemon.runtime + "/plugins/plugin-fake.json"
        func status() -> [String: Any]? {
            FileManager.default.contents(atPath: statusPath).flatMap {
                try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
            }
        }
        let firstPID = try #require(
            daemon.log.firstMatch(of: /plugin fake: started \(pid ([0-9]+)\)/).flatMap { pid_t($0.1) })
        #expect(
            await daemon.waitFor("a new process") {
                (status()?["pid"] as? Int).map { $0 != Int(firstPID) } == true
            }, "\(daemon.log)")
        #expect(await waitFor("the hung process to be gone") { !exists(firstPID) })
        let plugins = try daemon.cli(["plugins"])
        #expect(plugins.stdout.contains("restarts)"), "\(plugins.stdout)")
        #expect(plugins.stdout.contains("did not answer in time 3 times in a row"), "\(plugins.stdout)")
    }
}

/// Whether process `pid` is there at all, a zombie included (a zombie is a process nobody reaped).
private func exists(_ pid: pid_t) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
}
