import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 38, item 8: the daemon follows no link it did not make in its runtime directory. A plugin's state file is
/// written by descriptor too, through a real plugin's crash and restart; links at `acks/` and `status/`, put there
/// while it runs or before it starts, are `DrivenRuntimeLinkTests`' (the daemon in the test process).
@Suite("widgetd run: no link in the runtime directory is followed", .spawnsDaemons)
struct RuntimeLinkTests {

    /// A plugin's state file (`plugins/plugin-NAME.json`) is written by descriptor too: with a link put at `plugins/`,
    /// a plugin's crash and restart write nothing through it.
    @Test func aLinkPutAtPluginsIsNeverWrittenThrough() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = try writeFakePlugin(in: directory)
        let daemon = try DaemonUnderTest(
            config: """
                plugins:
                  fake: [/usr/bin/python3, \(script), count, fake, \(directory.url.path)]
                widgets:
                  w:
                    kind: fake
                    output: [plain]
                    on_click: {right: crash}
                """, reusing: directory)
        let plugins = daemon.runtime + "/plugins"
        #expect(
            await daemon.waitFor("the plugin's state file") {
                FileManager.default.fileExists(atPath: plugins + "/plugin-fake.json")
            })
        let elsewhere = try LinkedDirectories.elsewhere(in: daemon.directory)
        try LinkedDirectories.replaceByLink(plugins, to: elsewhere)
        _ = try daemon.cli(["click", "w", "--button", "3"])
        #expect(
            await daemon.waitFor("the crash in the log") { daemon.log.contains("plugin fake: exited with status 3") })
        #expect(await daemon.waitFor("the restart") { daemon.read("w.plain")?.contains("n=1") == true })
        #expect(
            LinkedDirectories.contents(of: elsewhere).isEmpty,
            "written through the link: \(LinkedDirectories.contents(of: elsewhere))")
    }
}
