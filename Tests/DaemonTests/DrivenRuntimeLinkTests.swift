import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon

/// Issue 38, item 8: the daemon follows no link it did not make in its runtime directory. A link put at `acks/` or
/// `status/` is refused and logged, never written or removed through, and once it goes the directory is made again
/// after the repair's delay; one there at the start stops the start; a plugin's state file is written by descriptor
/// too. The whole daemon in this process, on a clock the test moves (`DrivenDaemon`); requests are written to its FIFO
/// as a script writes them (the CLI refuses the link).
@Suite("the daemon on a driven clock: no link in the runtime directory is followed", .waitsOnThreadsOfItsOwn)
struct DrivenRuntimeLinkTests {
    static let config = """
        widgets:
          quote:
            kind: quotes
            output: [plain]
          other:
            kind: quotes
            output: [plain]

        """

    @Test func aLinkPutAtAcksIsNeverWrittenThroughAndAcksComesBackOnceItGoes() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        let elsewhere = try LinkedDirectories.elsewhere(in: driven.directory)
        let acks = driven.runtime + "/acks"
        try LinkedDirectories.replaceByLink(acks, to: elsewhere)
        driven.settle()
        #expect(driven.writeToFIFO("\nreload quote ack=probe1\n"))
        let refused = "\(acks) is a symbolic link; refusing to follow it"
        #expect(
            driven.turns(until: "the acknowledgement refused") {
                driven.log.contains("cannot acknowledge probe1: \(refused)")
            }, "\(driven.log)")
        driven.advance(by: DirectoryGuard.repairDelay)
        #expect(
            driven.log.contains("\(refused) (remove it and try again); '--wait' cannot be confirmed"), "\(driven.log)")
        #expect(driven.writeToFIFO("\nreload quote ack=probe2\n"))
        #expect(driven.turns(until: "the second refusal") { driven.log.contains("cannot acknowledge probe2") })
        #expect(LinkedDirectories.contents(of: elsewhere).isEmpty)

        // The daemon serves on, and once the link goes, acks/ is made again after the delay and a --wait is confirmed.
        #expect(unlink(acks) == 0)
        driven.settle()
        driven.advance(by: DirectoryGuard.repairDelay / 2)
        #expect(!LinkedDirectories.isDirectory(acks), "not while deletions may go on")
        driven.advance(by: DirectoryGuard.repairDelay)
        #expect(LinkedDirectories.isDirectory(acks))
        #expect(driven.reloadIsAcknowledged("quote", token: "after"))
        #expect(LinkedDirectories.contents(of: elsewhere).isEmpty)
    }

    @Test func aLinkPutAtStatusIsNeverWrittenOrRemovedThroughAndStatusComesBack() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(
            driven.turns(until: "the first timelines") { driven.hasTimeline("quote") && driven.hasTimeline("other") })
        let elsewhere = try LinkedDirectories.elsewhere(in: driven.directory)
        // A file of the same name as a widget's status: removing that widget must not remove it.
        try writeFile("not the daemon's", to: elsewhere + "/other.json")
        let status = driven.runtime + "/status"
        try LinkedDirectories.replaceByLink(status, to: elsewhere)
        driven.settle()
        driven.advance(by: DirectoryGuard.repairDelay)
        let refused = "\(status) is a symbolic link; refusing to follow it"
        #expect(
            driven.log.contains("\(refused) (remove it and try again); 'widgetd list' shows no status"),
            "\(driven.log)")
        // A reload writes the widget's status; the widget removed from the config loses its status file.
        #expect(driven.reloadIsAcknowledged("quote", token: "reload"))
        #expect(
            driven.turns(until: "quote's status refused") {
                driven.log.contains("quote: cannot write its status: \(refused)")
            }, "\(driven.log)")
        try driven.editConfig("widgets:\n  quote:\n    kind: quotes\n    output: [plain]\n")
        #expect(driven.turns(until: "other's removal") { driven.read("other.plain") == nil })
        #expect(LinkedDirectories.contents(of: elsewhere) == ["other.json"])
        #expect(try String(contentsOfFile: elsewhere + "/other.json", encoding: .utf8) == "not the daemon's")

        // Once the link goes, status/ is made again with every widget's status in it.
        #expect(unlink(status) == 0)
        driven.settle()
        driven.advance(by: DirectoryGuard.repairDelay)
        #expect(driven.turns(until: "quote's status again") { driven.hasTimeline("quote") })
        #expect(LinkedDirectories.isDirectory(status))
        #expect(LinkedDirectories.contents(of: elsewhere) == ["other.json"])
    }

    /// A plugin's state file (`plugins/plugin-NAME.json`) is written by descriptor too: with a link put at `plugins/`,
    /// a real plugin's crash and its restart after the pause write nothing through it.
    @Test func aLinkPutAtPluginsIsNeverWrittenThrough() throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let driven = try DrivenDaemon(
            fakePlugin: "count", in: state,
            widgets: "  w:\n    kind: fake\n    output: [plain]\n    on_click: {right: crash}")
        let plugins = driven.runtime + "/plugins"
        #expect(
            driven.turns(until: "the plugin's state file and first timeline") {
                FileManager.default.fileExists(atPath: plugins + "/plugin-fake.json")
                    && driven.shown("w")?.hasPrefix("n=1 ") == true
            })
        let first = driven.shown("w")
        let elsewhere = try LinkedDirectories.elsewhere(in: driven.directory)
        try LinkedDirectories.replaceByLink(plugins, to: elsewhere)
        #expect(driven.command(["click", "w", "--button", "3"]).status == 0)
        #expect(
            driven.turns(until: "the crash in the log") { driven.log.contains("plugin fake: exited with status 3") })
        driven.advance(by: 1)
        #expect(
            driven.turns(until: "the restart") {
                driven.shown("w")?.hasPrefix("n=1 ") == true && driven.shown("w") != first
            }, "\(driven.log)")
        #expect(
            LinkedDirectories.contents(of: elsewhere).isEmpty,
            "written through the link: \(LinkedDirectories.contents(of: elsewhere))")
    }

    /// A link already in place when the daemon starts is refused as one at the runtime directory's place is: the
    /// daemon says which and does not start (before, it started and wrote its status files through one at status/).
    @Test(arguments: ["acks", "status"])
    func aLinkInPlaceAtStartIsRefused(name: String) throws {
        let earlier = try DrivenDaemon(config: Self.config)
        earlier.stop()
        let runtime = earlier.runtime
        let elsewhere = try LinkedDirectories.elsewhere(in: earlier.directory)
        try LinkedDirectories.replaceByLink(runtime + "/" + name, to: elsewhere)
        #expect {
            _ = try DrivenDaemon(config: Self.config, reusing: earlier)
        } throws: { error in
            "\(error)".contains(
                "\(runtime)/\(name) is a symbolic link; refusing to follow it (remove it and try again)")
        }
        #expect(LinkedDirectories.contents(of: elsewhere).isEmpty)
    }
}
