import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// Requests to the daemon from the CLI and from whatever writes to its FIFO: `reload --wait` returning once its
/// reload landed, a failed request told to its `--wait`, garbage dropped, `show` and `list` answering from the files,
/// with the commands run in this process against the driven daemon (`DrivenCommand`).
@Suite("Requests, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenRequestTests {
    static let config = SampleConfigs.quoteAndSeconds

    private static func inode(_ path: String) -> ino_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_ino : nil
    }

    static func started(_ driven: DrivenDaemon, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        driven.turns(until: "the first timelines", sourceLocation: sourceLocation) {
            driven.hasTimeline("quote") && driven.hasTimeline("seconds")
        }
    }

    @Test func reloadWaitReturnsAfterTheReloadLanded() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(Self.started(driven))
        let statusPath = driven.runtime + "/status/quote.json"
        let before = try #require(Self.inode(statusPath))
        let result = driven.commandTakingTurns(["reload", "--kind", "quotes", "--wait"])
        #expect(result.status == 0, "\(result.stderr)")
        // No turn here: --wait returned only once the reload's results were written (each write of the status file is
        // a rename, so a new inode).
        #expect(Self.inode(statusPath) != before)
        #expect(driven.commandTakingTurns(["reload", "quote", "--wait"]).status == 0)
        #expect(driven.commandTakingTurns(["reload", "--wait"]).status == 0)
    }

    @Test func garbageOnTheFIFOLeavesTheDaemonRunningAndAnswering() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(Self.started(driven))
        var random = SystemRandomNumberGenerator()
        // Random lines, each starting with a byte UTF-8 never uses: all are dropped as "not UTF-8", one repeated
        // warning. A random line that happened to be valid text would be logged as an unknown command of its own,
        // and a few of those used up the log's burst, so the lines below went unlogged.
        var garbage = (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &random) }
        for index in garbage.indices where index == 0 || garbage[index - 1] == UInt8(ascii: "\n") {
            garbage[index] = 0xFF
        }
        let bytes =
            Data(garbage) + Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
            + Data("\nreload nosuchwidget\nclick quote 9\nintent quote fly\n".utf8)
        // More than the FIFO holds: written on a thread of its own while the loop's turns read it.
        let fifo = try #require(FileHandle(forWritingAtPath: driven.runtime + "/control"))
        let written = Mutex(false)
        Thread.detachNewThread {
            fifo.write(bytes)
            try? fifo.close()
            written.withLock { $0 = true }
        }
        #expect(
            driven.turns(until: "the long line dropped and the rest read", within: 50) {
                written.withLock { $0 } && driven.log.contains("line longer than 4096 bytes")
                    && driven.log.contains("button must be 1-5")
            })
        let result = driven.commandTakingTurns(["reload", "quote", "--wait"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func waitReportsARequestThatFailed() throws {
        let driven = try DrivenDaemon(config: "widgets:\n  quote:\n    kind: quotes\n  todos:\n    kind: todos\n")
        #expect(
            driven.turns(until: "the first timelines") { driven.hasTimeline("quote") && driven.hasTimeline("todos") })
        // An unknown intent is refused by the CLI before the daemon sees it (the daemon's own answer to one is
        // RequestDispatcherTests'); a to-do the store lacks only the daemon can find.
        let unknown = driven.command(["intent", "quote", "nope", "--wait"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("widgetd: error: kind 'quotes' of widget 'quote' has no intent 'nope'"))
        let missing = driven.commandTakingTurns(["intent", "todos", "toggle", "item=nothing like it", "--wait"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("widgetd: error: todos: toggle failed: "), "\(missing.stderr)")
        // A button with nothing bound does nothing: a `--wait`, which asked for something to happen, is told why.
        let scroll = driven.commandTakingTurns(["click", "quote", "--button", "4", "--wait"])
        #expect(scroll.status == 1)
        #expect(scroll.stderr.hasPrefix("widgetd: error: quote: nothing is bound to the scroll-up button"))
        // Without --wait a bar's click is not told, but the daemon says why it dropped it (the reason's wording is
        // RequestDispatcherTests').
        #expect(driven.command(["click", "quote", "--button", "2"]).status == 0)
        #expect(
            driven.turns(until: "the dropped click logged") {
                driven.log.contains("quote: nothing is bound to the middle button") && driven.log.contains("dropped")
            })
        #expect(driven.commandTakingTurns(["intent", "quote", "next", "--wait"]).status == 0)
    }

    @Test func showRendersAnyFormatAndListShowsEveryWidget() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(Self.started(driven))
        let unknown = driven.command(["show", "quot"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("widgetd: error: no widget 'quot' in "))
        #expect(unknown.stderr.contains("did you mean 'quote'?"))
        let tmux = driven.command(["show", "quote", "--format", "tmux"])
        #expect(tmux.status == 0)
        #expect(tmux.stdout == driven.read("quote.plain"))
        let list = driven.command(["list"])
        #expect(list.status == 0)
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("NAME") == true)
        #expect(lines.contains { $0.hasPrefix("quote ") && $0.contains("quotes") && $0.contains("after ") })
        #expect(lines.contains { $0.hasPrefix("seconds ") && $0.contains("clock") && $0.contains("atEnd") })
        let missing = driven.command(["show", "nope"])
        #expect(missing.status == 1)
    }
}
