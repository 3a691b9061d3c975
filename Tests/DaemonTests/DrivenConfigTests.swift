import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon

/// When the daemon re-reads widgets.yaml and what it keeps when the file is broken or gone: the whole daemon in this
/// process, its config edited on disk and its inotify watches real (`DrivenDaemon`). Which events are a change is
/// `ConfigWatcherTests`' alone.
@Suite("the daemon on a driven clock: the config re-read", .waitsOnThreadsOfItsOwn)
struct DrivenConfigTests {
    static let config = SampleConfigs.quoteAndSeconds

    static func quotes(_ names: [String]) -> String {
        "widgets:\n" + names.map { "  \($0):\n    kind: quotes\n" }.joined()
    }

    @Test func aBrokenEditKeepsTheRunningConfigAndAGoodOneApplies() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        let quote = driven.read("quote.plain")
        try driven.editConfig("widgets:\n  quote:\n    kind: quotez\n")
        #expect(
            driven.turns(until: "the error in the log") { driven.log.contains("keeping the running configuration") })
        #expect(driven.log.contains("widgets.yaml:3:11: unknown kind 'quotez'"))
        // One severity per line: the log's own prefix, not the diagnostic's again.
        #expect(!driven.log.contains(": error: unknown kind"), "\(driven.log)")
        #expect(driven.read("quote.plain") == quote)
        #expect(driven.read("seconds.plain") != nil)
        // A good edit: `seconds` goes, `calm` comes, `quote` is unchanged and keeps its entry.
        try driven.editConfig(
            "widgets:\n  quote:\n    kind: quotes\n    intent:\n      category: focus\n"
                + "    output: [plain, i3blocks, waybar]\n  calm:\n    kind: quotes\n    intent:\n"
                + "      category: mindfulness\n")
        #expect(driven.turns(until: "the new widget") { driven.read("calm.plain") != nil })
        #expect(driven.turns(until: "the removed widget's files to go") { driven.read("seconds.plain") == nil })
        #expect(driven.read("quote.plain") == quote)
    }

    /// A broken edit's warnings are logged as warnings beside its errors, as `check` calls them.
    @Test func aBrokenEditsWarningsStayWarnings() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        try driven.editConfig(
            "widgets:\n  quote:\n    kind: quotez\n  job:\n    kind: exec\n"
                + "    command: [widgetd-no-such-program-xyz]\n")
        #expect(
            driven.turns(until: "the error in the log") { driven.log.contains("keeping the running configuration") })
        #expect(driven.log.contains("error: \(driven.configPath):3:11: unknown kind 'quotez'"), "\(driven.log)")
        #expect(
            driven.log.contains("warning: \(driven.configPath):6:15: command 'widgetd-no-such-program-xyz'"),
            "\(driven.log)")
    }

    /// A re-read that finds the same widgets (a SIGHUP, a save with no change) restarts none of them.
    @Test func aReReadOfTheSameConfigRestartsNothing() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(driven.log.contains("started: 2 widgets"))
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        try driven.editConfig(Self.config)
        #expect(
            driven.turns(until: "the configuration applied") {
                driven.log.contains("configuration applied: 2 widgets, 0 restarted")
            }, "\(driven.log)")
    }

    /// `rm widgets.yaml` is logged, and the daemon keeps running its configuration until the file is back.
    @Test func aDeletedConfigIsLoggedAndTheRunningOneKept() throws {
        let driven = try DrivenDaemon(config: Self.quotes(["a"]))
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("a") })
        try FileManager.default.removeItem(atPath: driven.configPath)
        #expect(
            driven.turns(until: "the deletion logged") {
                driven.log.contains("\(driven.configPath): no such file")
                    && driven.log.contains("keeping the running configuration")
            }, "\(driven.log)")
        #expect(driven.read("a.plain") != nil)
        try Self.quotes(["a", "b"]).write(toFile: driven.configPath, atomically: false, encoding: .utf8)
        #expect(driven.turns(until: "b, from the file put back") { driven.hasTimeline("b") }, "\(driven.log)")
    }

    /// A dotfile manager that deletes and makes again the whole config directory, or moves it away and puts a new one
    /// in its place, does not leave the daemon blind to every save after it: the directory is followed through its
    /// parent.
    @Test func aDirectoryDeletedAndMadeAgainOrMovedAwayAndReplacedIsFollowedAgain() throws {
        let driven = try DrivenDaemon(config: Self.quotes(["a"]), configIn: "dotfiles/widgetd")
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("a") })
        let directory = driven.directory.url.path + "/dotfiles/widgetd"

        // `rm -rf; mkdir; cp`: the file written in place, after the directory is back.
        try FileManager.default.removeItem(atPath: directory)
        #expect(driven.turns(until: "the loss noted") { driven.log.contains("went away") })
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try Self.quotes(["a", "b"]).write(toFile: driven.configPath, atomically: false, encoding: .utf8)
        #expect(driven.turns(until: "b, from the new directory") { driven.hasTimeline("b") }, "\(driven.log)")

        // An editor's save in the new directory is seen: the watch is on it, not on the deleted one.
        try driven.editConfig(Self.quotes(["a", "b", "c"]))
        #expect(driven.turns(until: "c, saved in the new directory") { driven.hasTimeline("c") }, "\(driven.log)")

        // A new directory made aside with its config, then swapped in: the old one moved away, the new one renamed in.
        let parent = driven.directory.url.path + "/dotfiles"
        try FileManager.default.createDirectory(atPath: parent + "/widgetd.new", withIntermediateDirectories: false)
        try Self.quotes(["a", "b", "c", "d"]).write(
            toFile: parent + "/widgetd.new/widgets.yaml", atomically: false, encoding: .utf8)
        #expect(rename(parent + "/widgetd", parent + "/widgetd.old") == 0)
        #expect(rename(parent + "/widgetd.new", parent + "/widgetd") == 0)
        #expect(driven.turns(until: "d, from the directory moved in") { driven.hasTimeline("d") }, "\(driven.log)")

        try driven.editConfig(Self.quotes(["a", "b", "c", "d", "e"]))
        #expect(driven.turns(until: "e, saved in the directory moved in") { driven.hasTimeline("e") }, "\(driven.log)")
    }
}
