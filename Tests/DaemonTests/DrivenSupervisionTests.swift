import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 38, item 5, on the daemon in the test's process (`DrivenDaemon`): a persist command or a plugin is supervised
/// by its process, not by its pipe. One that exited while a child it started kept its standard output open stayed a
/// zombie, shown as running, its requests timing out for ever; a plugin that said hello and then never answered was
/// never restarted. The pauses before a restart and the requests' deadlines pass on the daemon's clock.
@Suite("supervision by process, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenSupervisionTests {
    @Test func aPersistCommandWhoseChildKeepsItsOutputIsStartedAgainWhenItExits() throws {
        let driven = try DrivenDaemon(
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
            let words = (driven.read("keeper.plain") ?? "").split(whereSeparator: \.isWhitespace).compactMap {
                pid_t($0)
            }
            return words.count == 2 ? (words[0], words[1]) : nil
        }
        #expect(driven.turns(until: "the first run's line") { shown() != nil }, "\(driven.log)")
        let first = try #require(shown())
        #expect(
            driven.turns(until: "its exit in the log") {
                driven.log.contains("keeper: exited; starting it again in 1 s")
            }, "\(driven.log)")
        driven.advance(by: 1)
        #expect(
            driven.turns(until: "a second run's line") { shown().map { $0.script != first.script } == true },
            "\(driven.log)")
        // Reaped, and what it left in its group ended with it.
        #expect(driven.turns(until: "the first script to be gone") { !processExists(first.script) })
        #expect(driven.turns(until: "its background child to be gone") { !processRuns(first.child) })
    }

    @Test func aPluginWhoseChildKeepsItsOutputIsStartedAgainWhenItExits() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let driven = try DrivenDaemon(
            fakePlugin: "orphan", in: directory, widgets: "  w:\n    kind: fake\n    output: [plain]")
        func shownPID() -> pid_t? {
            (driven.read("w.plain") ?? "").firstMatch(of: /pid=([0-9]+)/).flatMap { pid_t($0.1) }
        }
        #expect(driven.turns(until: "the first answer") { shownPID() != nil }, "\(driven.log)")
        let first = try #require(shownPID())
        #expect(
            driven.turns(until: "the exit in the log") {
                driven.log.contains("plugin fake: exited; starting it again in 1 s")
            }, "\(driven.log)")
        driven.advance(by: 1)
        #expect(
            driven.turns(until: "a new process's answer") { shownPID().map { $0 != first } == true }, "\(driven.log)")
        let orphans = try String(contentsOfFile: directory.url.path + "/orphans", encoding: .utf8)
        let orphan = try #require(orphans.split(separator: "\n").first.flatMap { pid_t($0) })
        #expect(driven.turns(until: "the first plugin process to be gone") { !processExists(first) })
        #expect(driven.turns(until: "the child it left to be gone") { !processRuns(orphan) })
    }

    @Test func aPluginThatStopsAnsweringIsRestartedAndSaysWhy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Three widgets: their first requests, in flight together, pass their deadlines together.
        let widgets = ["a", "b", "c"].map { "  \($0):\n    kind: fake\n    timeout: 300ms\n    output: [plain]\n" }
        let driven = try DrivenDaemon(fakePlugin: "hang", in: directory, widgets: widgets.joined())
        #expect(
            driven.turns(until: "the three requests") {
                Set(fakePluginLines(in: directory)).isSuperset(of: ["timeline a", "timeline b", "timeline c"])
            }, "\(driven.log)")
        let reason = "plugin fake: restarted: did not answer in time 3 times in a row"
        driven.advance(by: 0.2)
        driven.turn(timeout: .milliseconds(100))
        #expect(!driven.log.contains(reason), "not before the deadlines: \(driven.log)")
        driven.advance(by: 0.1)
        #expect(driven.turns(until: "the restart") { driven.log.contains(reason) }, "\(driven.log)")
        let statusPath = driven.runtime + "/plugins/plugin-fake.json"
        func status() -> [String: Any]? {
            FileManager.default.contents(atPath: statusPath).flatMap {
                try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
            }
        }
        let firstPID = try #require(
            driven.log.firstMatch(of: /plugin fake: started \(pid ([0-9]+)\)/).flatMap { pid_t($0.1) })
        driven.advance(by: 1)
        #expect(
            driven.turns(until: "a new process") {
                (status()?["pid"] as? Int).map { $0 != Int(firstPID) } == true
            }, "\(driven.log)")
        #expect(driven.turns(until: "the hung process to be gone") { !processExists(firstPID) })
        let plugins = driven.command(["plugins"])
        #expect(plugins.stdout.contains("restarts)"), "\(plugins.stdout)")
        #expect(plugins.stdout.contains("did not answer in time 3 times in a row"), "\(plugins.stdout)")
    }
}
