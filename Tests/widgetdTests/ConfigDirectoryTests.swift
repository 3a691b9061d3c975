import Foundation
import Testing

/// widgets.yaml where a SIGHUP must make the daemon read it: a symbolic link pointed elsewhere. A FIFO put in its place
/// is `DrivenConfigFIFOTests`', the directory deleted, replaced or the file removed, with no signal, `DrivenConfigTests`'
/// (the daemon in the test process), and which events are a change `ConfigWatcherTests`'.
@Suite("widgets.yaml replaced where a SIGHUP reads it", .spawnsDaemons)
struct ConfigDirectoryTests {
    static func config(_ names: [String]) -> String {
        "widgets:\n" + names.map { "  \($0):\n    kind: quotes\n" }.joined()
    }

    /// widgets.yaml as a symbolic link into a dotfiles repository (GNU stow, home-manager): the file is edited where
    /// the link points, in place or by an editor's rename there, and the link's own directory sees neither.
    @Test func aLinkedConfigIsFollowedWhereItPoints() async throws {
        let daemon = try DaemonUnderTest(
            config: Self.config(["a"]), configIn: "dotfiles/widgetd", configLink: "linked.yaml")
        #expect(await daemon.waitFor("the first timeline") { daemon.hasTimeline("a") })
        let target = daemon.directory.url.path + "/dotfiles/widgetd/widgets.yaml"

        // Written in place, as `sed -i`-less editors and `>` do.
        try Self.config(["a", "b"]).write(toFile: target, atomically: false, encoding: .utf8)
        #expect(await daemon.waitFor("b, written in place") { daemon.hasTimeline("b") }, "\(daemon.log)")

        // Saved by rename next to it, as most editors do.
        let temporary = target + ".swp"
        try Self.config(["a", "b", "c"]).write(toFile: temporary, atomically: false, encoding: .utf8)
        #expect(rename(temporary, target) == 0)
        #expect(await daemon.waitFor("c, saved by rename") { daemon.hasTimeline("c") }, "\(daemon.log)")

        // The link pointed at another file, and a SIGHUP (the link's replacement raises no save event): that file is
        // the one followed from then on.
        let other = daemon.directory.url.path + "/elsewhere.yaml"
        try Self.config(["d"]).write(toFile: other, atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: daemon.configPath)
        try FileManager.default.createSymbolicLink(atPath: daemon.configPath, withDestinationPath: other)
        #expect(kill(daemon.process.processIdentifier, SIGHUP) == 0)
        #expect(await daemon.waitFor("d, from the file linked now") { daemon.hasTimeline("d") }, "\(daemon.log)")
        #expect(
            await daemon.waitFor("the re-read logged") { daemon.log.contains("SIGHUP: re-reading") }, "\(daemon.log)")
        try Self.config(["d", "e"]).write(toFile: other, atomically: false, encoding: .utf8)
        #expect(
            await daemon.waitFor("e, written where the link points now") { daemon.hasTimeline("e") }, "\(daemon.log)")
    }

}
