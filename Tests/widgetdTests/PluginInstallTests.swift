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

/// What the daemon's user is told about a plugin that fails under it: its standard error's end and exit status in the
/// log, `plugins` and `doctor`; a plugin renamed away while it serves widgets, in `plugins`, `status`, `list` and
/// `doctor`.
@Suite("plugins that fail under the daemon", .spawnsDaemons)
struct PluginFailureReportTests {
    @Test func aCrashAndAFailedHelloAreLoggedWithTheirStandardError() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Says hello, then dies on its first request with a word on standard error.
        let crashing = try directory.write(
            "crashing.py",
            """
            import json, sys
            print(json.dumps({"type": "hello", "protocol": 1, "kind": {"name": "crashing"}}), flush=True)
            sys.stdin.readline()
            sys.stderr.write("reading the feed\\nboom: the feed is down\\n")
            sys.exit(3)

            """)
        let broken = try directory.write(
            "broken.py", "import sys\nsys.stderr.write('no config file\\n')\nsys.exit(2)\n")
        let daemon = try DaemonUnderTest(
            config: """
                plugins:
                  crashing: [/usr/bin/python3, \(crashing)]
                  broken: [/usr/bin/python3, \(broken)]
                widgets:
                  c:
                    kind: crashing
                """, reusing: directory)
        defer { daemon.stop() }
        #expect(
            await daemon.waitFor("the crash in the log") {
                daemon.log.contains(
                    "plugin crashing: exited with status 3 (standard error: boom: the feed is down)")
            }, "\(daemon.log)")
        // The plugin's lines share its log limit: on a slow start this one may come with the window's summary.
        #expect(
            await daemon.waitFor("the earlier line of standard error") {
                daemon.log.contains("plugin crashing: wrote on its standard error before that: reading the feed")
            }, "\(daemon.log)")
        #expect(
            daemon.log.contains(
                "plugin 'broken' (widgets.yaml) failed to load: exited with status 2 before its hello "
                    + "(standard error: no config file)"), "\(daemon.log)")
        let environment = daemon.environment
        let configPath = daemon.configPath
        let doctor = try await awaitingPrograms {
            try runWidgetd(["doctor", "--config", configPath], environment: environment)
        }
        #expect(doctor.stdout.contains("plugin 'broken' is broken: exited with status 2"), "\(doctor.stdout)")
        // Crashed, waiting out its back-off, most of the time from here on (1 s, 2 s, 4 s…).
        #expect(
            await daemon.waitFor("doctor naming the crash", timeout: .seconds(20)) {
                (try? daemon.cli(["doctor"]))?.stdout.contains(
                    "warning plugin 'crashing' crashed") == true
            })
        let plugins = try daemon.cli(["plugins"])
        #expect(plugins.status == 1, "\(plugins.stdout)")
        #expect(plugins.stdout.contains("broken: the last lines of its standard error:\n  no config file"))
    }

    @Test func aPluginRenamedWhileItServesIsSaidToBeGone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let plugins = directory.url.path + "/data/widgetd/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        _ = try runProgram("/bin/cp", [packageRoot.path + "/contrib/plugins/loadavg", plugins + "/"])
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  load:\n    kind: loadavg\n  q:\n    kind: quotes\n", reusing: directory)
        defer { daemon.stop() }
        #expect(
            await daemon.waitFor("the load") { daemon.read("load.plain")?.hasPrefix("load ") == true }, "\(daemon.log)")
        try FileManager.default.moveItem(atPath: plugins + "/loadavg", toPath: plugins + "/load-average")
        let gone = "plugin 'loadavg' is gone (\(plugins)/loadavg was renamed or removed since the daemon started it)"
        let listed = try daemon.cli(["plugins"])
        #expect(listed.status == 1, "\(listed.stdout)")
        let row = listed.stdout.split(separator: "\n").first { $0.hasPrefix("loadavg ") }
        #expect(row?.contains(" gone ") == true && row?.contains(gone) == true, "\(listed.stdout)")
        // `status` keeps to 80 columns: the start of the note.
        let status = try daemon.cli(["status"])
        #expect(status.stdout.contains("plugin 'loadavg' is gone"), "\(status.stdout)")
        let list = try daemon.cli(["list"])
        let load = list.stdout.split(separator: "\n").first { $0.hasPrefix("load ") }
        #expect(load?.contains(gone) == true, "\(list.stdout)")
        #expect(list.stdout.split(separator: "\n").first { $0.hasPrefix("q ") }?.contains(gone) == false)
        let doctor = try daemon.cli(["doctor"])
        #expect(doctor.stdout.contains("warning " + gone), "\(doctor.stdout)")
    }

    /// A plugin whose file went while it served, and which then exited: the daemon's start of it again failed at every
    /// reload with "cannot run …" (or, started through python3, as a crash loop), and nothing said the file was gone.
    /// Its widgets are stale with the reason, the log says it once, it is not started again until the file is back,
    /// and then it is.
    @Test func aPluginWhoseFileWentIsNotStartedAgainUntilItIsBack() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let plugin = try writeFakePlugin(in: directory)
        let state = directory.url.path
        let daemon = try DaemonUnderTest(
            config: """
                plugins:
                  fake: [/usr/bin/python3, \(plugin), count, fakekind, \(state)]
                widgets:
                  w:
                    kind: fakekind
                """, reusing: directory)
        defer { daemon.stop() }
        #expect(await daemon.waitFor("the plugin's widget") { daemon.read("w.plain")?.hasPrefix("n=1") == true })
        // Each run of the plugin says "hello" there: the daemon's probe for its declaration, then its host's start.
        let hellos = {
            (try? String(contentsOfFile: state + "/requests", encoding: .utf8))?.split(separator: "\n")
                .filter { $0 == "hello" }.count
        }
        let hellosBefore = hellos()
        try FileManager.default.moveItem(atPath: plugin, toPath: plugin + ".renamed")
        _ = try daemon.cli(["intent", "w", "crash"])
        let gone = "its file \(plugin) is gone (renamed or removed since the daemon started it)"
        #expect(
            await daemon.waitFor("the log to say the file is gone") {
                daemon.log.contains("plugin fake: exited with status 3; " + gone)
            }, "\(daemon.log)")
        #expect(daemon.log.contains("not started again until it is back"), "\(daemon.log)")
        #expect(
            await daemon.waitFor("the widget stale with the reason") {
                daemon.read("w.json")?.contains(#""failure":"plugin fake exited with status 3; its file"#) == true
            }, "\(daemon.read("w.json") ?? "")")
        // A reload meanwhile fails at once with the reason, and starts nothing.
        let reload = try daemon.cli(["reload", "w", "--wait"])
        #expect(reload.status == 1 && (reload.stdout + reload.stderr).contains(gone), "\(reload)")
        #expect(daemon.loggedTimes("plugin fake: started (pid") == 1, "\(daemon.log)")
        #expect(hellos() == hellosBefore)

        try FileManager.default.moveItem(atPath: plugin + ".renamed", toPath: plugin)
        #expect(
            await daemon.waitFor("the plugin started again", timeout: .seconds(20)) {
                daemon.log.contains("plugin fake: \(plugin) is back; starting it again")
                    && daemon.read("w.plain")?.hasPrefix("n=1") == true
                    && daemon.read("w.json")?.contains("failure") == false
            }, "\(daemon.log)")
        #expect(daemon.loggedTimes("cannot run") == 0, "\(daemon.log)")
    }
}
