import Foundation
import TestSupport
import Testing

/// A plugin that crashes or hangs under the daemon in the test's process (`DrivenDaemon`): its host's pause before a
/// restart and its requests' deadlines pass on the daemon's clock, which the test moves.
@Suite("plugin restarts and timeouts, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenPluginRestartTests {
    @Test func aCrashedPluginIsStartedAgainAndItsWidgetsReload() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let driven = try DrivenDaemon(
            fakePlugin: "count", in: directory,
            widgets: "  w:\n    kind: fake\n    output: [plain]\n    on_click: {right: crash}")
        #expect(driven.turns(until: "the first timeline") { driven.shown("w")?.hasPrefix("n=1 pid=") == true })
        let first = driven.shown("w")
        #expect(driven.command(["click", "w", "--button", "3"]).status == 0)
        #expect(
            driven.turns(until: "the crash in the log") {
                driven.log.contains("plugin fake: exited with status 3; starting it again in 1 s")
            }, "\(driven.log)")
        // Not started again before its pause has passed on the daemon's clock.
        driven.advance(by: 0.5)
        driven.turn(timeout: .milliseconds(100))
        #expect(driven.shown("w") == first)
        #expect(!driven.log.contains("reloading its widgets, which starts it again"), "\(driven.log)")
        driven.advance(by: 0.5)
        #expect(
            driven.turns(until: "a new process's timeline") {
                let text = driven.shown("w")
                return text?.hasPrefix("n=1 pid=") == true && text != first
            }, "\(driven.log)")
        let plugins = driven.command(["plugins"])
        #expect(plugins.stdout.contains("running (1 restarts)"), "\(plugins.stdout)")
        #expect(plugins.stdout.contains("exited with status 3"), "\(plugins.stdout)")
        // The daemon's own reload after the pause is not put down to the plugin.
        #expect(driven.log.contains("plugin kind fake: reloading its widgets, which starts it again"), "\(driven.log)")
        #expect(!driven.log.contains("plugin kind fake asked to reload its widgets"), "\(driven.log)")
    }

    @Test func whileAPluginIsDownItsWidgetsKeepTheirLastEntriesMarkedStale() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let driven = try DrivenDaemon(
            fakePlugin: "count", in: directory,
            widgets: """
                  w:
                    kind: fake
                    output: [plain, waybar]
                    on_click: {right: crash}
                  other:
                    kind: fake
                    output: [plain]
                """)
        #expect(
            driven.turns(until: "the first timelines") {
                driven.shown("other")?.hasPrefix("n=") == true && driven.shown("w")?.hasPrefix("n=") == true
            })
        let last = driven.shown("w")
        // From now on every start of the plugin fails at once, so it stays down, retried with growing pauses.
        _ = try directory.write("dead", "")
        #expect(driven.command(["click", "w", "--button", "3"]).status == 0)
        #expect(
            driven.turns(until: "the stale mark") { driven.read("w.waybar")?.contains("stale") == true },
            "\(driven.log)")
        #expect(
            driven.turns(until: "the crash in the log") {
                driven.log.contains("plugin fake: exited with status 3; starting it again in 1 s")
            }, "\(driven.log)")
        driven.advance(by: 1)
        #expect(
            driven.turns(until: "a failed restart") {
                driven.log.contains("plugin fake: exited with status 4; starting it again in 2 s")
            }, "\(driven.log)")
        #expect(driven.shown("w") == last, "the last entry stays")
        let list = driven.command(["list"])
        #expect(list.stdout.contains("exited with status 4") || list.stdout.contains("exited with status 3"))
        try FileManager.default.removeItem(atPath: directory.url.path + "/dead")
        // The plugin comes back at its next retry, after a pause that grew with the failure.
        driven.advance(by: 2)
        #expect(
            driven.turns(until: "the plugin back") {
                driven.read("w.waybar").map { !$0.contains("stale") } == true && driven.shown("w") != last
            }, "\(driven.log)")
    }

    /// The hung call fails at its timeout, on the daemon's clock: the host's deadline (did not answer in time) and the
    /// engine's (timed out) fall on the same instant, and either says it first; the other widgets go on meanwhile.
    @Test func aHangingPluginTimesOutWhileOtherWidgetsStayOnTime() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = try writeFakePlugin(in: directory)
        let fastState = directory.url.path + "/fast"
        try FileManager.default.createDirectory(atPath: fastState, withIntermediateDirectories: true)
        let driven = try DrivenDaemon(
            config: """
                plugins:
                  slow: [/usr/bin/python3, \(script), hang, slow, \(directory.url.path)]
                  quick: [/usr/bin/python3, \(script), future, quick, \(fastState)]
                widgets:
                  stuck:
                    kind: slow
                    timeout: 1s
                    output: [plain]
                  moving:
                    kind: quick
                    output: [plain]
                  tick:
                    kind: clock
                    intent: {format: "%S", seconds: true}
                    output: [plain]
                """)
        #expect(
            driven.turns(until: "the other plugin's entry and the clock") {
                driven.shown("moving") == "A" && driven.shown("tick") != nil
                    && fakePluginLines(in: directory).contains("timeline stuck")
            }, "\(driven.log)")
        let timedOut = {
            driven.log.contains("slow did not answer in time") || driven.log.contains("timed out after 1 s")
        }
        driven.advance(by: 0.9)
        #expect(!timedOut(), "not before its timeout: \(driven.log)")
        let first = driven.shown("tick")
        driven.advance(by: 0.1)
        #expect(driven.turns(until: "the timeout") { timedOut() }, "\(driven.log)")
        // The clock keeps its seconds while the plugin hangs, and the other plugin's later entry comes at its date.
        #expect(driven.turns(until: "the clock's next second") { driven.shown("tick") != first })
        driven.advance(by: 0.5)
        #expect(driven.turns(until: "the other plugin's later entry") { driven.shown("moving") == "B" })
        let list = driven.command(["list"])
        #expect(
            list.stdout.contains("did not answer in time") || list.stdout.contains("timed out after 1 s"),
            "\(list.stdout)")
        #expect(driven.shown("stuck") == "starting", "the placeholder stays")
    }
}
