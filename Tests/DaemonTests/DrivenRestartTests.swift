import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon

/// What a start finds of the run before it, in the same directories: the kept entries paint first, the files of
/// widgets and formats gone from the config go, every file is replaced. The whole daemon, twice, in this process on a
/// clock the test moves (`DrivenDaemon`).
@Suite("the daemon on a driven clock: a restart", .waitsOnThreadsOfItsOwn)
struct DrivenRestartTests {
    static let quote = "widgets:\n  quote:\n    kind: quotes\n    intent:\n      category: focus\n"

    @Test func theLastEntriesPaintAtOnceAfterARestart() throws {
        let first = try DrivenDaemon(config: Self.quote)
        #expect(first.turns(until: "the first timeline") { first.hasTimeline("quote") })
        let quote = try #require(first.read("quote.plain")).dropLast()
        #expect(first.log.contains("quote: shows 'Small steps count.'"))
        first.stop()
        let state = first.directory.url.path + "/state/widgetd/entries/quote.json"
        #expect(try String(contentsOfFile: state, encoding: .utf8).contains(String(quote)))
        // The same directories again: the kept quote paints first, not the placeholder.
        let second = try DrivenDaemon(config: Self.quote, reusing: first)
        #expect(second.log.contains("quote: shows '\(quote)'"))
        #expect(!second.log.contains("quote: shows 'Small steps count.'"))
    }

    @Test func aWidgetRemovedWhileTheDaemonWasStoppedLosesItsFilesAtTheNextStart() throws {
        let both = "widgets:\n  kept:\n    kind: quotes\n  removed:\n    kind: quotes\n    output: [plain, waybar]\n"
        let first = try DrivenDaemon(config: both)
        #expect(first.turns(until: "both timelines") { first.hasTimeline("kept") && first.hasTimeline("removed") })
        first.stop()
        #expect(first.read("removed.waybar") != nil)
        // A file of the user's in the same directory, named like no widget of the last run, is left alone.
        try "mine\n".write(toFile: first.output + "/notes.plain", atomically: true, encoding: .utf8)

        let second = try DrivenDaemon(config: "widgets:\n  kept:\n    kind: quotes\n", reusing: first)
        #expect(second.log.contains("removed: not in "), "\(second.log)")
        for file in ["removed.plain", "removed.waybar", "removed.json"] { #expect(second.read(file) == nil, "\(file)") }
        #expect(!FileManager.default.fileExists(atPath: second.runtime + "/status/removed.json"))
        #expect(second.read("kept.plain") != nil)
        #expect(second.read("notes.plain") == "mine\n")
    }

    /// A format dropped from a widget's `output:` while the daemon was stopped: its file went on showing that run's
    /// last entry (a waybar module frozen). It is removed at the next start, as when dropped while running.
    @Test func aFormatDroppedWhileTheDaemonWasStoppedLosesItsFileAtTheNextStart() throws {
        let first = try DrivenDaemon(config: "widgets:\n  q:\n    kind: quotes\n    output: [plain, waybar, tmux]\n")
        #expect(first.turns(until: "the timeline") { first.hasTimeline("q") && first.read("q.tmux") != nil })
        first.stop()
        // A file of the user's named like a format of no widget, and one like a widget of no earlier run, stay.
        try "mine\n".write(toFile: first.output + "/q.backup", atomically: true, encoding: .utf8)
        try "mine\n".write(toFile: first.output + "/other.waybar", atomically: true, encoding: .utf8)

        let second = try DrivenDaemon(
            config: "widgets:\n  q:\n    kind: quotes\n    output: [plain, tmux]\n", reusing: first)
        #expect(second.log.contains("q: removed its waybar files from the last run"), "\(second.log)")
        #expect(second.read("q.waybar") == nil)
        #expect(second.read("q.plain") != nil && second.read("q.tmux") != nil)
        #expect(second.read("q.backup") == "mine\n" && second.read("other.waybar") == "mine\n")
    }

    @Test func hundredsOfWidgetsPaintEveryFileAtStartAndAgainAfterARestart() throws {
        // More widgets than `Daemon.showsPaintedTogether`: the paint goes through `OutputWriter.writeAll`.
        let count = 700
        var config = "widgets:\n"
        for index in 0..<count { config += "  c\(index):\n    kind: clock\n    output: [plain, i3bar]\n" }
        let first = try DrivenDaemon(config: config)
        func visibleFiles(_ daemon: DrivenDaemon, _ suffix: String) -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: daemon.output)) ?? [])
                .filter { !$0.hasPrefix(".") && $0.hasSuffix(suffix) }.count
        }
        #expect(first.turns(until: "every bar file") { visibleFiles(first, ".plain") == count })
        #expect(first.turns(until: "every i3bar file") { visibleFiles(first, ".i3bar") == count })
        for index in [0, 349, 699] {
            let plain = try #require(first.read("c\(index).plain"))
            #expect(plain.count > 1 && plain.hasSuffix("\n"), "\(plain.debugDescription)")
            #expect(first.read("c\(index).i3bar")?.contains("\"full_text\"") == true)
        }
        #expect(!first.log.contains("cannot write"), "\(first.log)")
        first.stop()
        // The same directories again: every file is there from the last run, so each is replaced, not linked in.
        func inode(_ path: String) -> ino_t? {
            var status = stat()
            return lstat(path, &status) == 0 ? status.st_ino : nil
        }
        let before = try #require(inode(first.output + "/c5.plain"))
        let second = try DrivenDaemon(config: config, reusing: first)
        #expect(
            second.turns(until: "the files replaced") {
                inode(second.output + "/c5.plain").map { $0 != before } == true
            })
        let missing = (0..<count).filter { access(second.output + "/c\($0).plain", F_OK) != 0 }
        #expect(missing.isEmpty, "missing: \(missing)")
        #expect(!second.log.contains("cannot write"), "\(second.log)")
    }
}
