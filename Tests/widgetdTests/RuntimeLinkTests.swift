import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 38, item 8: the daemon follows no link it did not make in its runtime directory. A plugin's state file is
/// written by descriptor too, through a real plugin's crash and restart; links at `acks/` and `status/`, put there
/// while it runs or before it starts, are `DrivenRuntimeLinkTests`' (the daemon in the test process).
@Suite("widgetd run: no link in the runtime directory is followed", .spawnsDaemons)
struct RuntimeLinkTests {
    /// A directory elsewhere, the user's own, that the link points to.
    static func elsewhere(in directory: TemporaryDirectory) throws -> String {
        let path = directory.url.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func contents(of path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Replaces the directory at `path` by a link to `target`.
    static func replaceByLink(_ path: String, to target: String) throws {
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

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
        let elsewhere = try Self.elsewhere(in: daemon.directory)
        try Self.replaceByLink(plugins, to: elsewhere)
        _ = try daemon.cli(["click", "w", "--button", "3"])
        #expect(
            await daemon.waitFor("the crash in the log") { daemon.log.contains("plugin fake: exited with status 3") })
        #expect(await daemon.waitFor("the restart") { daemon.read("w.plain")?.contains("n=1") == true })
        #expect(Self.contents(of: elsewhere).isEmpty, "written through the link: \(Self.contents(of: elsewhere))")
    }
}
