import Foundation
import Glibc
import TestSupport
import Testing

/// What the daemon's user is told about a plugin that fails under it, on the daemon in the test's process
/// (`DrivenDaemon`): its standard error's end and exit status in the log, `plugins` and `doctor`; a plugin renamed
/// away while it serves widgets, in `plugins`, `status`, `list` and `doctor`, and not started again until it is back.
/// The host's pauses pass on the daemon's clock, which the test moves.
@Suite("plugins that fail under the daemon, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenPluginFailureReportTests {
    @Test func aCrashAndAFailedHelloAreLoggedWithTheirStandardError() throws {
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
        let driven = try DrivenDaemon(
            config: """
                plugins:
                  crashing: [/usr/bin/python3, \(crashing)]
                  broken: [/usr/bin/python3, \(broken)]
                widgets:
                  c:
                    kind: crashing
                """)
        #expect(
            driven.turns(until: "the crash in the log") {
                driven.log.contains("plugin crashing: exited with status 3 (standard error: boom: the feed is down)")
            }, "\(driven.log)")
        #expect(
            driven.turns(until: "the earlier line of standard error") {
                driven.log.contains("plugin crashing: wrote on its standard error before that: reading the feed")
            }, "\(driven.log)")
        #expect(
            driven.log.contains(
                "plugin 'broken' (widgets.yaml) failed to load: exited with status 2 before its hello "
                    + "(standard error: no config file)"), "\(driven.log)")
        // Crashed, waiting out its back-off on the daemon's clock, which stands still.
        let doctor = driven.command(["doctor"])
        #expect(doctor.stdout.contains("plugin 'broken' is broken: exited with status 2"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("warning plugin 'crashing' crashed"), "\(doctor.stdout)")
        let plugins = driven.command(["plugins"])
        #expect(plugins.status == 1, "\(plugins.stdout)")
        #expect(plugins.stdout.contains("broken: the last lines of its standard error:\n  no config file"))
    }

    @Test func aPluginRenamedWhileItServesIsSaidToBeGone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let plugins = directory.url.path + "/data/widgetd/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: contribPlugin("loadavg"), toPath: plugins + "/loadavg")
        let driven = try DrivenDaemon(
            config: "widgets:\n  load:\n    kind: loadavg\n  q:\n    kind: quotes\n", in: directory)
        #expect(
            driven.turns(until: "the load") { driven.read("load.plain")?.hasPrefix("load ") == true }, "\(driven.log)")
        try FileManager.default.moveItem(atPath: plugins + "/loadavg", toPath: plugins + "/load-average")
        let gone = "plugin 'loadavg' is gone (\(plugins)/loadavg was renamed or removed since the daemon started it)"
        let listed = driven.command(["plugins"])
        #expect(listed.status == 1, "\(listed.stdout)")
        let row = listed.stdout.split(separator: "\n").first { $0.hasPrefix("loadavg ") }
        #expect(row?.contains(" gone ") == true && row?.contains(gone) == true, "\(listed.stdout)")
        // `status` keeps to 80 columns: the start of the note.
        let status = driven.command(["status"])
        #expect(status.stdout.contains("plugin 'loadavg' is gone"), "\(status.stdout)")
        let list = driven.command(["list"])
        let load = list.stdout.split(separator: "\n").first { $0.hasPrefix("load ") }
        #expect(load?.contains(gone) == true, "\(list.stdout)")
        #expect(list.stdout.split(separator: "\n").first { $0.hasPrefix("q ") }?.contains(gone) == false)
        let doctor = driven.command(["doctor"])
        #expect(doctor.stdout.contains("warning " + gone), "\(doctor.stdout)")
    }

    /// A plugin whose file went while it served, and which then exited: the daemon's start of it again failed at every
    /// reload with "cannot run …" (or, started through python3, as a crash loop), and nothing said the file was gone.
    /// Its widgets are stale with the reason, the log says it once, it is not started again until the file is back,
    /// and then it is, at the end of the pause it is in on the daemon's clock.
    @Test func aPluginWhoseFileWentIsNotStartedAgainUntilItIsBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let plugin = try writeFakePlugin(in: directory)
        let state = directory.url.path
        let driven = try DrivenDaemon(
            config: """
                plugins:
                  fake: [/usr/bin/python3, \(plugin), count, fakekind, \(state)]
                widgets:
                  w:
                    kind: fakekind
                """)
        #expect(driven.turns(until: "the plugin's widget") { driven.read("w.plain")?.hasPrefix("n=1") == true })
        // Each run of the plugin says "hello" there: the daemon's probe for its declaration, then its host's start.
        let hellos = { fakePluginLines(in: directory).filter { $0 == "hello" }.count }
        let hellosBefore = hellos()
        let shownBefore = driven.read("w.plain")
        try FileManager.default.moveItem(atPath: plugin, toPath: plugin + ".renamed")
        #expect(driven.command(["intent", "w", "crash"]).status == 0)
        let gone = "its file \(plugin) is gone (renamed or removed since the daemon started it)"
        #expect(
            driven.turns(until: "the log to say the file is gone") {
                driven.log.contains("plugin fake: exited with status 3; " + gone)
            }, "\(driven.log)")
        #expect(driven.log.contains("not started again until it is back"), "\(driven.log)")
        #expect(
            driven.turns(until: "the widget stale with the reason") {
                driven.read("w.json")?.contains(#""failure":"plugin fake exited with status 3; its file"#) == true
            }, "\(driven.read("w.json") ?? "")")
        // A reload meanwhile fails at once with the reason, and starts nothing.
        let reload = driven.commandTakingTurns(["reload", "w", "--wait"])
        #expect(reload.status == 1 && (reload.stdout + reload.stderr).contains(gone), "\(reload)")
        #expect(driven.logged("plugin fake: started (pid") == 1, "\(driven.log)")
        #expect(hellos() == hellosBefore)

        try FileManager.default.moveItem(atPath: plugin + ".renamed", toPath: plugin)
        driven.advance(by: 60)
        // A new run's count (`n=… pid=…`, the pid another): the widget's own retry may ask it before the reload that
        // the file's return sets off, so its count may be past 1.
        #expect(
            driven.turns(until: "the plugin started again") {
                driven.log.contains("plugin fake: \(plugin) is back; starting it again")
                    && driven.read("w.plain").map { $0.hasPrefix("n=") && $0 != shownBefore } == true
                    && driven.read("w.json")?.contains("failure") == false
            }, "\(driven.log)")
        #expect(driven.logged("cannot run") == 0, "\(driven.log)")
    }
}

/// A plugin shipped in contrib/plugins.
func contribPlugin(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("contrib/plugins/" + name).path
}
