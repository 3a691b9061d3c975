import Foundation
import TestSupport
import Testing

/// Issue 37, item 2: a widgets.yaml saved with a YAML mistake is refused by the daemon, which keeps its config; the
/// clicks every bar sends must keep landing meanwhile, resolved against what the daemon runs, not the file.
@Suite("Clicks while widgets.yaml is broken", .spawnsDaemons)
struct BrokenConfigClickTests {
    static let config = """
        widgets:
          motivation:
            kind: motivations
            output: plain
        bars:
          main:
            - motivation

        """

    /// The command line a contrib config runs for a left click on `motivation`: the first line of `file` that
    /// contains `marker`, with `prefix` and what follows the command cut off.
    static func contribClick(_ file: String, after prefix: String, marker: String, upTo end: String? = nil) throws
        -> String
    {
        let text = try String(contentsOfFile: packageRoot.path + "/contrib/" + file, encoding: .utf8)
        let line = try #require(
            text.split(separator: "\n").first { $0.contains(marker) && $0.contains(prefix) },
            "no '\(marker)' line in contrib/\(file)")
        var command = String(line[try #require(line.range(of: prefix)).upperBound...])
        if let end, let cut = command.range(of: end) { command = String(command[..<cut.lowerBound]) }
        return command
    }

    @Test func everyBarsClickLandsAndTheLogNamesTheBrokenFileOnce() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(try runWidgetd(["motivations", "add", "No zero days."], environment: daemon.environment).status == 0)
        #expect(await daemon.waitFor("the motivation") { daemon.read("motivation.plain")?.contains("No zero") == true })

        try daemon.editConfig(Self.config + "  broken: [unclosed, flow\n")
        #expect(await daemon.waitFor("the edit refused") { daemon.log.contains("keeping the running configuration") })

        // As the bars run them: through a shell, `widgetd` found on PATH, the config found as a user's would be.
        let binaries = widgetdBinary.deletingLastPathComponent().path
        let environment = daemon.environment.merging([
            "PATH": binaries + ":/usr/bin:/bin", "WIDGETD_CONFIG": daemon.configPath, "BLOCK_BUTTON": "1",
            "BLOCK_NAME": "widgetd", "BLOCK_INSTANCE": "motivation",
        ]) { $1 }
        let clicks = [
            ("i3blocks", try Self.contribClick("i3blocks.conf", after: "command=", marker: "click motivation")),
            ("polybar", try Self.contribClick("polybar/widgetd.ini", after: "click-left = ", marker: "motivation")),
            (
                "waybar",
                try Self.contribClick(
                    "waybar/config.jsonc", after: #""on-click": ""#, marker: "click motivation\"", upTo: "\"")
            ),
            (
                "tmux",
                try Self.contribClick(
                    "tmux/widgetd.tmux.conf", after: "run-shell '", marker: "MouseDown1StatusLeft", upTo: "'")
            ),
        ]
        var shown = try #require(daemon.read("motivation.plain"))
        for (bar, command) in clicks {
            let result = try runProgram("/bin/sh", ["-c", command], environment: environment)
            #expect(result.status == 0, "\(bar): \(command): \(result.stderr)")
            let before = shown
            #expect(
                await daemon.waitFor("\(bar)'s click to toggle the star") {
                    shown = daemon.read("motivation.plain") ?? before
                    return shown != before
                })
        }

        // i3bar or swaybar starting `widgetd bar --bar main` (a restart of i3 reruns it) after the file broke.
        let bar = try BarCommandTests.Bar(daemon, ["--bar", "main"])
        let text = {
            bar.statusLines.last?.first { $0["instance"] as? String == "motivation" }?["full_text"] as? String
        }
        try #require(await waitFor("the bar's first line") { text() != nil }, "\(bar.errors)")
        let before = text()
        bar.click(#"{"name":"widgetd","instance":"motivation","button":1,"relative_x":3,"width":90}"#)
        #expect(await waitFor("the bar's click to toggle the star") { text() != before })

        #expect(daemon.loggedTimes("motivation: left click runs toggle-favorite") == clicks.count + 1)
        #expect(daemon.loggedTimes(daemon.configPath + ":") == 1, "\(daemon.log)")
        #expect(daemon.loggedTimes("keeping the running configuration") == 1)
    }

    /// A plugin named under `plugins:`: once the file's YAML is broken, its `plugins:` names it no more, and a bar
    /// started then checked the running copy without the plugin's kind, and refused to start.
    @Test func aBarStartedAfterTheFileBrokeKnowsThePluginsOfTheRunningConfig() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let plugin = try writeFakePlugin(in: directory)
        let config = """
            plugins:
              fake: [/usr/bin/python3, \(plugin), count, fakekind]
            widgets:
              f:
                kind: fakekind
                output: plain
            bars:
              main: [f]

            """
        let daemon = try DaemonUnderTest(config: config, reusing: directory)
        defer { daemon.stop() }
        #expect(await daemon.waitFor("the plugin's widget") { daemon.read("f.plain")?.hasPrefix("n=1") == true })
        try daemon.editConfig(config + "  broken: [unclosed, flow\n")
        #expect(await daemon.waitFor("the edit refused") { daemon.log.contains("keeping the running configuration") })

        let bar = try BarCommandTests.Bar(daemon, ["--bar", "main"])
        #expect(
            await waitFor("the bar's first line") {
                (bar.statusLines.last?.first?["full_text"] as? String)?.hasPrefix("n=1") == true
            }, "\(bar.errors)")
        let names = try await daemon.cli(["generate", "names"])
        #expect(names.stdout == "f\n")
    }
}
