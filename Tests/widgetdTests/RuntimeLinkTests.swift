import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 38, item 8: the daemon wrote through a symbolic link put at `acks/` or `status/` in its runtime directory
/// (the CLI refuses the same link), and removed files through one. It follows no link it did not make: a link there
/// is refused and logged, never written or removed through, and once it goes the directory is made again.
@Suite("widgetd run: no link in the runtime directory is followed", .spawnsDaemons)
struct RuntimeLinkTests {
    static let config = """
        widgets:
          quote:
            kind: quotes
            output: [plain]
          other:
            kind: quotes
            output: [plain]

        """

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

    @Test func aLinkPutAtAcksIsNeverWrittenThroughAndAcksComesBackOnceItGoes() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(await daemon.waitFor("the first timeline") { daemon.hasTimeline("quote") })
        let elsewhere = try Self.elsewhere(in: daemon.directory)
        let acks = daemon.runtime + "/acks"
        try Self.replaceByLink(acks, to: elsewhere)
        // The CLI refuses the link before it writes, so the request is written as a script would.
        try writeFIFO(daemon.runtime + "/control", "\nreload quote ack=probe1\n")
        let refused = "\(acks) is a symbolic link; refusing to follow it"
        #expect(
            await daemon.waitFor("the acknowledgement refused") {
                daemon.log.contains("cannot acknowledge probe1: \(refused)")
            }, "\(daemon.log)")
        #expect(
            await daemon.waitFor("the repair's refusal") {
                daemon.log.contains("\(refused) (remove it and try again); '--wait' cannot be confirmed")
            }, "\(daemon.log)")
        try writeFIFO(daemon.runtime + "/control", "\nreload quote ack=probe2\n")
        #expect(await daemon.waitFor("the second refusal") { daemon.log.contains("cannot acknowledge probe2") })
        #expect(Self.contents(of: elsewhere).isEmpty)

        // The daemon serves on, and once the link goes, acks/ is made again and a --wait is confirmed.
        #expect(unlink(acks) == 0)
        #expect(
            await daemon.waitFor("acks/ made again") {
                var info = stat()
                return lstat(acks, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
            })
        let reload = try daemon.cli(["reload", "quote", "--wait"])
        #expect(reload.status == 0, "\(reload.stderr)")
        #expect(Self.contents(of: elsewhere).isEmpty)
        #expect(daemon.process.isRunning)
    }

    @Test func aLinkPutAtStatusIsNeverWrittenOrRemovedThroughAndStatusComesBack() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(
            await daemon.waitFor("the first timelines") { daemon.hasTimeline("quote") && daemon.hasTimeline("other") })
        let elsewhere = try Self.elsewhere(in: daemon.directory)
        // A file of the same name as a widget's status: removing that widget must not remove it.
        try writeFile("not the daemon's", to: elsewhere + "/other.json")
        let status = daemon.runtime + "/status"
        try Self.replaceByLink(status, to: elsewhere)
        let refused = "\(status) is a symbolic link; refusing to follow it"
        #expect(
            await daemon.waitFor("the repair's refusal") {
                daemon.log.contains("\(refused) (remove it and try again); 'widgetd list' shows no status")
            }, "\(daemon.log)")
        // A reload writes the widget's status; the widget removed from the config loses its status file.
        let reload = try daemon.cli(["reload", "quote", "--wait"])
        #expect(reload.status == 0, "\(reload.stderr)")
        #expect(
            await daemon.waitFor("quote's status refused") {
                daemon.log.contains("quote: cannot write its status: \(refused)")
            }, "\(daemon.log)")
        try daemon.editConfig("widgets:\n  quote:\n    kind: quotes\n    output: [plain]\n")
        #expect(await daemon.waitFor("other's removal") { daemon.read("other.plain") == nil })
        #expect(Self.contents(of: elsewhere) == ["other.json"])
        #expect(try String(contentsOfFile: elsewhere + "/other.json", encoding: .utf8) == "not the daemon's")

        // Once the link goes, status/ is made again with every widget's status in it.
        #expect(unlink(status) == 0)
        #expect(await daemon.waitFor("quote's status again") { daemon.hasTimeline("quote") })
        var info = stat()
        #expect(lstat(status, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR)
        #expect(Self.contents(of: elsewhere) == ["other.json"])
        #expect(daemon.process.isRunning)
    }

    /// A link already in place when the daemon starts is refused as one at the runtime directory's place is: the
    /// daemon says which and does not start (before, it started and wrote its status files through one at status/).
    @Test(arguments: ["acks", "status"])
    func aLinkInPlaceAtStartIsRefused(name: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let runtime = directory.url.path + "/run/widgetd"
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        #expect(chmod(directory.url.path + "/run", 0o700) == 0)
        let elsewhere = try Self.elsewhere(in: directory)
        try FileManager.default.createSymbolicLink(atPath: runtime + "/" + name, withDestinationPath: elsewhere)
        let daemon = try DaemonUnderTest(config: Self.config, reusing: directory)
        let stopped = await daemon.waitFor("the daemon to stop") { !daemon.process.isRunning }
        #expect(
            daemon.log.contains(
                "\(runtime)/\(name) is a symbolic link; refusing to follow it (remove it and try again)"),
            "\(daemon.log)")
        #expect(Self.contents(of: elsewhere).isEmpty)
        // Only once it has ended: Foundation stops the whole run when asked a running process's status.
        guard stopped else { return }
        #expect(daemon.process.terminationStatus == 1)
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
