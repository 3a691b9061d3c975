import Foundation
import TestSupport
import Testing

/// Plugins served by the daemon in the test's process (`DrivenDaemon`): real plugin processes (the test plugin of
/// TestSupport's `FakePlugin.swift`), whose answers wake the loop's turns. What depends on real time stays in
/// widgetdTests' `PluginEndToEndTests`: the host's pause before a restart and its timeouts are on the wall clock, a
/// flood is counted a second, a pushed reload waits for the plugin to see a file.
@Suite("plugins, on the driven daemon")
struct DrivenPluginTests {
    /// A driven daemon whose `plugins:` runs the fake plugin in `mode` as kind `fake`, its state in `directory`.
    private static func daemon(mode: String, in directory: TemporaryDirectory, widgets: String) throws -> DrivenDaemon {
        let script = try writeFakePlugin(in: directory)
        return try DrivenDaemon(
            config: """
                plugins:
                  fake: [/usr/bin/python3, \(script), \(mode), fake, \(directory.url.path)]
                widgets:
                \(widgets)
                """)
    }

    /// The plain text a widget shows, without its newline.
    private static func shown(_ driven: DrivenDaemon, _ name: String) -> String? {
        driven.read(name + ".plain").map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
    }

    /// The lines the fake plugin wrote: "hello" at each start, then a line per request.
    private static func lines(in directory: TemporaryDirectory) -> [Substring] {
        ((try? String(contentsOfFile: directory.url.path + "/requests", encoding: .utf8)) ?? "").split(separator: "\n")
    }

    @Test func aClickRunsThePluginsIntentAndTheWidgetReloads() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let driven = try Self.daemon(mode: "count", in: directory, widgets: "  w:\n    kind: fake\n    output: [plain]")
        #expect(driven.turns(until: "the first timeline") { Self.shown(driven, "w")?.hasPrefix("n=1 ") == true })
        let click = driven.commandTakingTurns(["click", "w", "--button", "1", "--wait"])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(
            driven.turns(until: "the reload after the intent") {
                Self.shown(driven, "w")?.hasPrefix("n=2 poked=left ") == true
            }, "\(driven.log)")
        #expect(Self.lines(in: directory).contains("intent w"))
    }

    @Test func garbageAndATenMegabyteLineAreSkippedAndTheReplyStillLands() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let driven = try Self.daemon(
            mode: "garbage", in: directory, widgets: "  w:\n    kind: fake\n    output: [plain]")
        #expect(
            driven.turns(until: "the reply after the garbage") { Self.shown(driven, "w")?.hasPrefix("n=1 ") == true },
            "\(driven.log)")
        let log = driven.log
        #expect(log.contains("sent a line that is not a JSON object: 'not json at all'"))
        #expect(log.contains("sent a line that is not UTF-8 (JSON must be)"), "\(log)")
        #expect(log.contains("sent a line longer than 1024 KiB; skipped"))
        #expect(log.contains("answered request 999999 late or twice"))
        #expect(!log.contains("restarted"), "a few bad lines do not restart it")
        #expect(driven.commandTakingTurns(["reload", "w", "--wait"]).status == 0)
        #expect(
            driven.turns(until: "the second reply") { Self.shown(driven, "w")?.hasPrefix("n=2 ") == true },
            "\(driven.log)")
    }

    @Test func requestsArePipelinedAndAnsweredInAnyOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The plugin answers nothing until two requests are in flight at once, then answers the later one first.
        let driven = try Self.daemon(
            mode: "reverse", in: directory,
            widgets: "  w:\n    kind: fake\n    output: [plain]\n  other:\n    kind: fake\n    output: [plain]")
        #expect(
            driven.turns(until: "both answers") {
                Self.shown(driven, "w") == "answered w" && Self.shown(driven, "other") == "answered other"
            }, "\(driven.log)")
        #expect(
            Self.lines(in: directory).filter { $0 == "hello" }.count == 2,
            "one process served both (and the daemon's probe ran once)")
    }

}
