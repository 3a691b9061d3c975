import Foundation
import Glibc
import Runtime
import System
import TestSupport
import Testing
import Timelines

@testable import Daemon

/// The updates socket's bar lines (`BarLine`, `UpdatesMessage`, `Daemon+Updates`): a bar subscribes to a `bars:` entry's line and is sent each
/// new one, and while it is subscribed the line has no file. The real daemon in this process on a clock the test moves,
/// with real sockets.
@Suite("the daemon on a driven clock: bars subscribed to their lines", .waitsOnThreadsOfItsOwn)
struct DrivenBarSubscriptionTests {
    /// A kind whose timeline shows `tick 0`, `tick 1`, … a second apart.
    private static func ticks(_ count: Int = 10) -> ScriptedKind {
        ScriptedKind(name: "ticks") { now in
            Timeline(
                entries: (0..<count).map {
                    TimelineEntry(date: now.addingTimeInterval(Double($0)), content: EntryContent(text: "tick \($0)"))
                }, policy: .never)
        }
    }

    private static let config = "widgets:\n  t:\n    kind: ticks\nbars:\n  main: [t]\n"

    /// A daemon on `config` whose bar shows the timeline's first entry, in its file: no bar has subscribed yet.
    private static func daemon(ticks count: Int = 10) throws -> DrivenDaemon {
        let driven = try DrivenDaemon(config: config, kinds: [ticks(count)])
        #expect(driven.turns(until: "the bar's file") { driven.read("main.bar").map(Self.texts) == ["tick 0"] })
        return driven
    }

    /// The full texts of a line's blocks.
    private static func texts(_ line: String) -> [String] {
        let blocks = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [[String: Any]] ?? []
        return blocks.map { $0["full_text"] as? String ?? "?" }
    }

    @Test func aSubscriberIsSentTheLineAtOnceThenEachNewOneAndTheLineHasNoFileMeanwhile() throws {
        let driven = try Self.daemon()
        var subscriber: UpdatesClient? = try UpdatesClient(driven, bar: "main")
        var received: [String] = []
        #expect(
            driven.turns(until: "the current line") {
                received += subscriber?.messages().texts ?? []
                return received.map(Self.texts) == [["tick 0"]]
            })
        #expect(driven.read("main.bar") == nil, "a subscribed bar's file would go stale")
        for second in 1...3 {
            driven.advance(by: 1)
            driven.settle()
            received += subscriber?.messages().texts ?? []
            #expect(received.last.map(Self.texts) == ["tick \(second)"])
        }
        #expect(received.map(Self.texts) == (0...3).map { ["tick \($0)"] }, "one message per new line")
        #expect(driven.read("main.bar") == nil)
        // The last subscriber gone, the line goes back to its file, current.
        subscriber = nil
        #expect(driven.turns(until: "the file again") { driven.read("main.bar").map(Self.texts) == ["tick 3"] })
        driven.advance(by: 1)
        driven.settle()
        #expect(driven.read("main.bar").map(Self.texts) == ["tick 4"])
    }

    @Test func aConnectionThatSubscribesToNoBarOfTheConfigIsClosedAndLogged() throws {
        let driven = try Self.daemon()
        let stranger = try UpdatesClient(driven, bar: "side")
        let garbage = try UpdatesClient(driven, saying: "hello")
        #expect(driven.turns(until: "both closed") { stranger.messages().closed && garbage.messages().closed })
        #expect(driven.log.contains("'subscribe side' asks for no bar or widgets of the config"), "\(driven.log)")
        #expect(driven.log.contains("'hello' asks for no bar or widgets of the config"), "\(driven.log)")
        // The bar's own file is untouched, and a real subscriber is still served.
        #expect(driven.read("main.bar").map(Self.texts) == ["tick 0"])
        let subscriber = try UpdatesClient(driven, bar: "main")
        #expect(driven.turns(until: "its line") { !subscriber.messages().texts.isEmpty })
    }

    /// A bar that stopped reading fills its queue: the daemon lets it go rather than wait or hold the lines, and serves
    /// the other subscriber of the same bar on.
    @Test func aSubscriberThatStopsReadingIsLetGoAndTheOthersAreServed() throws {
        let driven = try Self.daemon(ticks: 5000)
        let stuck = try UpdatesClient(driven, bar: "main")
        let reading = try UpdatesClient(driven, bar: "main")
        var last: String?
        #expect(driven.turns(until: "the first line") { (last = reading.messages().texts.last ?? last) != nil })
        var seconds = 0
        while !driven.log.contains("a connection waiting for a line of bar main stopped reading"), seconds < 4000 {
            seconds += 1
            driven.advance(by: 1)
            driven.settle()
            last = reading.messages().texts.last ?? last
        }
        #expect(
            driven.log.contains("a connection waiting for a line of bar main stopped reading: closed it"),
            "\(seconds) s")
        #expect(last.map(Self.texts) == ["tick \(seconds)"], "the reader has every line up to now")
        // The stuck one sees the end after what was queued for it, and the file stays away while one is subscribed.
        #expect(driven.turns(until: "the stuck one's end") { stuck.messages().closed })
        #expect(driven.read("main.bar") == nil)
    }

    /// A `bars:` entry's line is the daemon's, rendered once at the end of the turn that sampled its widgets: a bar is
    /// sent exactly one line per change, never a mix of old and new samples, and a bar taken out of the config takes its
    /// file with it. Four load widgets sampled every second from a tree the test writes.
    @Test func aBarsEntryIsTheLineTheDaemonWritesOncePerTurn() throws {
        let tree = try FakeProcTree()
        defer { tree.directory.remove() }
        let widgets = ["a", "b", "c", "d"]
        let loads = "widgets:\n" + widgets.map { "  \($0): {kind: load, interval: 1s}\n" }.joined()
        let driven = try DrivenDaemon(
            config: loads + "bars:\n  main: [\(widgets.joined(separator: ", "))]\n", kinds: tree.kinds)
        var subscriber: UpdatesClient? = try UpdatesClient(driven, bar: "main")
        var received: [[String]] = []
        func shows(_ load: String) -> Bool {
            received += (subscriber?.messages().texts ?? []).map(Self.texts)
            return received.last == Array(repeating: load, count: widgets.count)
        }
        #expect(driven.turns(until: "the first line") { shows("0.25") }, "\(received)")
        for load in ["1.50", "2.75"] {
            try tree.load(load)
            driven.advance(by: 1)
            #expect(driven.turns(until: "the samples of \(load)") { shows(load) }, "\(received)")
        }
        #expect(
            received == ["0.25", "1.50", "2.75"].map { Array(repeating: $0, count: widgets.count) },
            "one line per change: \(received)")
        // The bar gone, its line goes back to its file once the daemon sees the connection end.
        subscriber = nil
        #expect(driven.turns(until: "the bar's file back") { driven.read("main.bar") != nil })
        let line = try #require(driven.read("main.bar"))
        let blocks = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]])
        #expect(blocks.map { $0["instance"] as? String } == widgets, "\(line)")
        try driven.editConfig("widgets:\n  a: {kind: load, interval: 1s}\n")
        #expect(driven.turns(until: "the bar's file gone") { driven.read("main.bar") == nil })
    }

    /// A stopping daemon leaves each subscribed bar's current line in its file, for the bar to show until a daemon runs
    /// again, closes the connections and removes the socket.
    @Test func aStoppingDaemonFilesTheSubscribedLinesAndTakesItsSocket() throws {
        let driven = try Self.daemon()
        let subscriber = try UpdatesClient(driven, bar: "main")
        #expect(driven.turns(until: "the first line") { !subscriber.messages().texts.isEmpty })
        driven.advance(by: 2)
        driven.settle()
        #expect(driven.read("main.bar") == nil)
        driven.stop()
        #expect(driven.read("main.bar").map(Self.texts) == ["tick 2"])
        #expect(subscriber.closes())
        #expect(access(driven.runtime + "/updates", F_OK) != 0)
    }

    /// A pipe's read end, non-blocking, and what has come through it.
    private final class PipeEnd {
        let read: Int32
        let write: Int32

        init() {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            (read, write) = (ends[0], ends[1])
            #expect(fcntl(read, F_SETFL, O_NONBLOCK) == 0)
        }

        deinit {
            close(read)
            close(write)
        }

        /// What came since the last call.
        func text() -> String {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = Glibc.read(read, &chunk, chunk.count)
                guard count > 0 else { break }
                bytes += chunk[..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// A bar hands its standard output, i3bar's pipe, to the daemon, which writes each new line there itself, after a
    /// comma as i3bar's protocol continues; it stops while i3bar paused the bar and writes the current line when it
    /// continues. No line comes as a message meanwhile.
    @Test func aBarHandsItsOutputToTheDaemonWhichWritesItsLinesPausedAndContinued() throws {
        let driven = try Self.daemon()
        let bar = try UpdatesClient(driven, bar: "main")
        #expect(driven.turns(until: "the first line") { bar.messages().texts.map(Self.texts) == [["tick 0"]] })
        let output = PipeEnd()
        bar.say(.writeLines, passing: output.write)
        var written = ""
        #expect(driven.turns(until: "the current line, written") { (written += output.text(), written).1 != "" })
        #expect(written.hasPrefix(",[") && written.hasSuffix("]\n"), "\(written)")
        #expect(Self.texts(String(written.dropFirst().dropLast())) == ["tick 0"])
        driven.advance(by: 1)
        driven.settle()
        let next = output.text()
        #expect(next.hasPrefix(",[") && next.hasSuffix("]\n"), "\(next)")
        #expect(Self.texts(String(next.dropFirst().dropLast())) == ["tick 1"])
        bar.say(.pause)
        driven.settle()
        driven.advance(by: 1)
        driven.settle()
        #expect(output.text() == "", "paused")
        bar.say(.resume)
        #expect(driven.turns(until: "the current line") { (written = output.text(), written).1 != "" })
        #expect(Self.texts(String(written.dropFirst().dropLast())) == ["tick 2"])
        #expect(bar.messages() == ([], false), "no message while the daemon writes the lines")
    }

    /// A bar's output that is no pipe is not taken, and i3bar's pipe that stays full (i3bar stopped reading) is let go
    /// with the subscription, rather than a line cut in it or the daemon waiting.
    @Test func anOutputThatIsNoPipeIsRefusedAndAFullOneIsLetGo() throws {
        let driven = try Self.daemon(ticks: 5000)
        let file = try #require(FileHandle(forWritingAtPath: "/dev/null"))
        let notAPipe = try UpdatesClient(driven, bar: "main")
        notAPipe.say(.writeLines, passing: file.fileDescriptor)
        #expect(driven.turns(until: "refused") { notAPipe.messages().closed })
        #expect(driven.log.contains("a bar said 'write' after its subscription: closed the connection"))
        let bar = try UpdatesClient(driven, bar: "main")
        let output = PipeEnd()
        // F_SETPIPE_SZ (Linux's; Glibc declares it for _GNU_SOURCE only): one page, a handful of lines.
        #expect(fcntl(output.write, 1031, 4096) >= 0)
        bar.say(.writeLines, passing: output.write)
        var seconds = 0
        while !driven.log.contains("bar main's output is full or gone"), seconds < 1000 {
            seconds += 1
            driven.advance(by: 1)
            driven.settle()
        }
        #expect(driven.log.contains("bar main's output is full or gone: closed its subscription"))
        #expect(driven.turns(until: "the subscription's end") { bar.messages().closed })
        // Only whole lines came through.
        let text = output.text()
        #expect(
            text.hasSuffix("]\n") && text.split(separator: "\n").allSatisfy { $0.hasPrefix(",[") }, "\(text.suffix(80))"
        )
    }
}
