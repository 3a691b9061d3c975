import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon

/// widgets.yaml as a symbolic link into a dotfiles repository (GNU stow, home-manager), on the daemon in the test's
/// process (`DrivenDaemon`), whose inotify watches are real: the file is edited where the link points, in place or by
/// an editor's rename there, and the link's own directory sees neither. A SIGHUP is handed to `Daemon.handleSignals`
/// as the loop hands it what its signalfd read.
@Suite("the daemon on a driven clock: a linked widgets.yaml", .waitsOnThreadsOfItsOwn)
struct DrivenConfigLinkTests {
    static func config(_ names: [String]) -> String {
        "widgets:\n" + names.map { "  \($0):\n    kind: quotes\n" }.joined()
    }

    @Test func aLinkedConfigIsFollowedWhereItPoints() throws {
        let driven = try DrivenDaemon(
            config: Self.config(["a"]), configIn: "dotfiles/widgetd", configLink: "linked.yaml")
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("a") })
        let target = driven.directory.url.path + "/dotfiles/widgetd/widgets.yaml"

        // Written in place, as `sed -i`-less editors and `>` do.
        try Self.config(["a", "b"]).write(toFile: target, atomically: false, encoding: .utf8)
        #expect(driven.turns(until: "b, written in place") { driven.hasTimeline("b") }, "\(driven.log)")

        // Saved by rename next to it, as most editors do.
        let temporary = target + ".swp"
        try Self.config(["a", "b", "c"]).write(toFile: temporary, atomically: false, encoding: .utf8)
        #expect(rename(temporary, target) == 0)
        #expect(driven.turns(until: "c, saved by rename") { driven.hasTimeline("c") }, "\(driven.log)")

        // The link pointed at another file, and a SIGHUP (the link's replacement raises no save event): that file is
        // the one followed from then on.
        let other = driven.directory.url.path + "/elsewhere.yaml"
        try Self.config(["d"]).write(toFile: other, atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: driven.configPath)
        try FileManager.default.createSymbolicLink(atPath: driven.configPath, withDestinationPath: other)
        driven.daemon.handleSignals([SIGHUP])
        #expect(driven.turns(until: "d, from the file linked now") { driven.hasTimeline("d") }, "\(driven.log)")
        #expect(
            driven.turns(until: "the re-read logged") { driven.log.contains("SIGHUP: re-reading") }, "\(driven.log)")
        try Self.config(["d", "e"]).write(toFile: other, atomically: false, encoding: .utf8)
        #expect(
            driven.turns(until: "e, written where the link points now") { driven.hasTimeline("e") }, "\(driven.log)")
    }
}
