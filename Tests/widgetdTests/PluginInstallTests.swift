import Foundation
import TestSupport
import Testing

/// Plugins install by copying one file (docs/PLUGINS.md): each contrib plugin runs alone in an empty plugin
/// directory; a broken one is shown with the end of its standard error and its exit status, and once fixed (a module
/// copied in beside it, no cache touched) it is shown ready at once; `plugins` exits 1 while one is broken.
@Suite("plugins install by copying one file")
struct PluginInstallTests {
    typealias PluginHome = PluginEndToEndTests.PluginHome

    /// The rows of `widgetd plugins`' table, split into their first cells (the last column may hold spaces).
    private static func row(_ name: String, in output: String) -> [String]? {
        output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
            .first { $0.first == name }
    }

    @Test(arguments: [("countdown", "countdown"), ("loadavg", "loadavg"), ("pomodoro", "pomodoro")])
    func aContribPluginCopiedAloneIsReady(plugin: String, kind: String) throws {
        let home = try PluginHome()
        defer { home.directory.remove() }
        // `cp` as a user types it, from the examples as the checkout (and the .deb) has them: run bits included.
        let copied = try runProgram(
            "/bin/cp", [packageRoot.path + "/contrib/plugins/" + plugin, home.path + "/data/widgetd/plugins/"])
        try #require(copied.status == 0, "\(copied.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path + "/data/widgetd/plugins") == [plugin])
        let listed = try runWidgetd(["plugins"], environment: home.environment())
        #expect(listed.status == 0, "\(listed.stdout)\(listed.stderr)")
        #expect(
            Self.row(plugin, in: listed.stdout).map { Array($0.prefix(4)) } == [plugin, kind, "1.0", "ready"],
            "\(listed.stdout)")
    }

    @Test func aBrokenPluginShowsItsStandardErrorAndIsReadyOnceFixed() throws {
        let home = try PluginHome()
        defer { home.directory.remove() }
        // A plugin whose helper module is not beside it yet: Python's traceback ends with the line that says so.
        try home.install(
            "weather",
            """
            #!/usr/bin/python3
            import os, sys
            sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
            import weatherlib
            weatherlib.serve()

            """)
        let config = try home.directory.write("widgets.yaml", "widgets:\n  w:\n    kind: weather\n")
        let environment = home.environment(config: config)
        let broken = try runWidgetd(["plugins"], environment: environment)
        #expect(broken.status == 1, "\(broken.stdout)")
        #expect(
            Self.row("weather", in: broken.stdout).map { Array($0.prefix(4)) } == ["weather", "-", "-", "broken"],
            "\(broken.stdout)")
        let missing = "ModuleNotFoundError: No module named 'weatherlib'"
        #expect(
            broken.stdout.contains("exited with status 1 before its hello (standard error: \(missing))"),
            "\(broken.stdout)")
        // Under the table, the traceback's last lines.
        #expect(
            broken.stdout.contains("weather: the last lines of its standard error:\n  Traceback"), "\(broken.stdout)")
        #expect(broken.stdout.contains("\n  " + missing + "\n"), "\(broken.stdout)")
        let check = try runWidgetd(["check"], environment: environment)
        #expect(check.status == 1)
        #expect(check.stderr.contains("(standard error: \(missing))"), "\(check.stderr)")
        let doctor = try runWidgetd(["doctor"], environment: environment)
        #expect(doctor.stdout.contains("error   plugin 'weather' is broken: exited with status 1"), "\(doctor.stdout)")

        // Fixed by copying the module in beside it: neither the plugin nor any cache is touched.
        try writeFile(
            """
            import json, sys
            def serve():
                print(json.dumps({"type": "hello", "protocol": 1, "version": "2.0", "kind": {"name": "weather"}}), flush=True)
                for line in sys.stdin:
                    request = json.loads(line)
                    print(json.dumps({"id": request["id"], "entries": [{"text": "sunny"}]}), flush=True)

            """, to: home.path + "/data/widgetd/plugins/weatherlib.py")
        // `check` does not run a remembered failure again, but one whose directory changed is no longer remembered.
        let checked = try runWidgetd(["check"], environment: environment)
        #expect(checked.status == 0, "\(checked.stderr)")
        let fixed = try runWidgetd(["plugins"], environment: environment)
        #expect(fixed.status == 0, "\(fixed.stdout)")
        #expect(
            Self.row("weather", in: fixed.stdout).map { Array($0.prefix(4)) } == [
                "weather", "weather", "2.0", "ready",
            ], "\(fixed.stdout)")
        #expect(!fixed.stdout.contains("standard error"), "\(fixed.stdout)")
    }
}
