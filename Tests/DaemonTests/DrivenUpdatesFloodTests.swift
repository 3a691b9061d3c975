import Config
import Foundation
import Glibc
import Kind
import Runtime
import System
import TestSupport
import Testing
import Timelines

@testable import CLI
@testable import Daemon

/// The updates socket under more than it takes at once (`UpdateSubscribers`, `AcceptPause`, `UpdatesMessage.follows`):
/// connections the daemon has no descriptor for, and a list of widgets longer than one message holds. The real daemon
/// in this process on a clock the test moves, with real sockets.
@Suite("the daemon on a driven clock: the updates socket flooded", .waitsOnThreadsOfItsOwn)
struct DrivenUpdatesFloodTests {
    /// The listener's `accept`s, counted, failing while `failing` as `accept4` does in a daemon out of descriptors.
    private final class Accepts {
        var tries = 0
        var failing = true
    }

    /// What a thread of the bar's made, handed to the test's.
    private final class Made: @unchecked Sendable {
        private let lock = NSLock()
        private var made: DaemonSubscription??

        func set(_ subscription: DaemonSubscription?) { lock.withLock { made = .some(subscription) } }
        var isDone: Bool { lock.withLock { made != nil } }
        var subscription: DaemonSubscription? { lock.withLock { made ?? nil } }
    }

    private static func daemon() throws -> DrivenDaemon {
        let ticks = ScriptedKind(name: "ticks") { now in
            Timeline(entries: [TimelineEntry(date: now, content: EntryContent(text: "tick"))], policy: .never)
        }
        let driven = try DrivenDaemon(config: "widgets:\n  t:\n    kind: ticks\n", kinds: [ticks])
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("t") })
        return driven
    }

    private static func count(_ text: String, in log: String) -> Int {
        log.components(separatedBy: text).count - 1
    }

    /// A connection the daemon cannot take stays waiting, so the listener is readable again at once: polled on, it
    /// would wake every turn for an `accept` that fails again, and log each. It rests for `AcceptPause.pause` on the
    /// daemon's clock instead, is tried again then, and the failures in a row are one line of the log, and one more
    /// when it works again; the connection that waited is served.
    @Test func aFailingAcceptRestsTheListenerAndIsLoggedOncePerEpisode() throws {
        let driven = try Self.daemon()
        let accepts = Accepts()
        driven.daemon.updateSubscribers.accepting = { listener throws(SystemError) in
            accepts.tries += 1
            if accepts.failing { throw SystemError(call: "accept4", errno: EMFILE) }
            return try listener.accept()
        }
        let listener = try #require(driven.daemon.updateSubscribers.listener).socket.rawValue
        let failure = "cannot take a connection on \(driven.runtime)/updates"
        let client = try UpdatesClient(driven, following: ["t"])
        for _ in 0..<20 { driven.turn(timeout: .milliseconds(5)) }
        #expect(accepts.tries == 1, "one accept, not one a turn")
        #expect(!driven.daemon.updateSubscribers.descriptors.contains(listener))
        #expect(Self.count(failure, in: driven.log) == 1, "\(driven.log)")
        // Its rest over, the listener is tried again; failing still, it rests again without a word.
        driven.advance(by: AcceptPause.pause)
        for _ in 0..<5 { driven.turn(timeout: .milliseconds(5)) }
        #expect(accepts.tries == 2)
        #expect(Self.count(failure, in: driven.log) == 1, "\(driven.log)")
        accepts.failing = false
        driven.advance(by: AcceptPause.pause)
        var answers: [String] = []
        #expect(
            driven.turns(until: "the waiting client's answer") {
                answers += client.messages().texts
                return answers == [UpdatesMessage.current]
            })
        #expect(driven.log.contains("taking connections on \(driven.runtime)/updates again, after 2 failures"))
        #expect(driven.daemon.updateSubscribers.descriptors.contains(listener))
        // Another episode is another line.
        accepts.failing = true
        let late = try UpdatesClient(driven, following: ["t"])
        #expect(driven.turns(until: "the second episode") { Self.count(failure, in: driven.log) == 2 })
        withExtendedLifetime(late) {}
    }

    /// Each `follow` on a connection adds its widgets to those it follows, and is answered on its own: a client with
    /// more names than one message holds says them in several.
    @Test func followsOnOneConnectionAddUpAndEachIsAnswered() throws {
        let driven = try Self.daemon()
        let client = try UpdatesClient(driven, following: ["t"])
        client.say(.follow(widgets: ["u", "v"]))
        var answers: [String] = []
        var closed = false
        #expect(
            driven.turns(until: "both answers") {
                let (texts, ended) = client.messages()
                answers += texts
                closed = closed || ended
                return answers.count == 2 || closed
            })
        #expect(answers == [UpdatesMessage.current, UpdatesMessage.current])
        #expect(!closed)
        for name in ["t", "u", "v"] { #expect(driven.daemon.updateSubscribers.isFollowed(name), "\(name)") }
        // A bar's subscription is no follow to add to.
        client.say(.subscribe(bar: "main"))
        #expect(driven.turns(until: "the connection closed") { client.messages().closed })
        #expect(driven.log.contains("a connection said more than one request: closed it"), "\(driven.log)")
    }

    /// A connection follows no more names than a config can hold: its `follow`s are answered until their names pass
    /// `UpdateSubscribers.maxFollowedBytes`, and the one that passes it closes the connection.
    @Test func aConnectionFollowingMoreNamesThanAConfigHoldsIsClosed() throws {
        let driven = try Self.daemon()
        let names = [String](repeating: String(repeating: "x", count: InstanceName.maximumLength), count: 900)
        let perMessage = names.reduce(0) { $0 + 1 + $1.utf8.count }
        let client = try UpdatesClient(driven, following: names)
        var answered = 0
        var closed = false
        while !closed, answered * perMessage <= UpdateSubscribers.maxFollowedBytes {
            #expect(
                driven.turns(until: "an answer or the end") {
                    let (texts, ended) = client.messages()
                    answered += texts.count
                    closed = ended
                    return !texts.isEmpty || ended
                })
            if !closed { client.say(.follow(widgets: names)) }
        }
        #expect(answered == UpdateSubscribers.maxFollowedBytes / perMessage)
        #expect(driven.turns(until: "the connection closed") { closed || client.messages().closed })
        #expect(driven.log.contains("a connection followed over 1048576 bytes of widget names"), "\(driven.log)")
    }

    /// `widgetd bar --widgets` with names well over a message's 64 KiB follows every one of them: its `follow`s add up
    /// on one connection, and once they are answered the record of a sampled widget named last, written only while
    /// followed, is current.
    @Test func aBarFollowingWidgetsWhoseNamesPassAMessageFollowsEveryOne() throws {
        let tree = try FakeProcTree()
        defer { tree.directory.remove() }
        let driven = try DrivenDaemon(config: "widgets:\n  load: {kind: load, interval: 1s}\n", kinds: tree.kinds)
        #expect(driven.turns(until: "the first sample") { driven.read("load.plain") == "0.25\n" })
        try tree.load("1.50")
        driven.advance(by: 1)
        #expect(driven.turns(until: "the new sample") { driven.read("load.plain") == "1.50\n" })
        let record = driven.output + "/load.json"
        #expect(ShowCommand.render(record, as: .plain) != "1.50", "no one follows it: its record is behind")
        // Names of the longest an instance may have, sorted before `load`, so it is said last.
        let others = (0..<2_500).map { index in
            let name = "a\(index)-"
            return name + String(repeating: "x", count: InstanceName.maximumLength - name.count)
        }
        let items = (others + ["load"]).map { BarItem(widget: $0) }
        #expect(others.reduce(0) { $0 + 1 + $1.utf8.count } > 2 * UpdateSubscribers.maxMessage)
        let control = driven.daemon.paths.control
        // The bar's follow waits for the daemon's answers: on a thread of its own, while the test takes the turns.
        let made = Made()
        Thread.detachNewThread { made.set(try? BarCommand.follow(items, control: control)) }
        #expect(driven.turns(until: "the bar's follow", within: 10) { made.isDone })
        let subscription = made.subscription
        #expect(subscription?.isConnected == true)
        #expect(ShowCommand.render(record, as: .plain) == "1.50", "\(driven.log)")
        let unfollowed = (others + ["load"]).filter { !driven.daemon.updateSubscribers.isFollowed($0) }
        #expect(unfollowed.count == 0, "not followed: \(unfollowed.prefix(3)) …")
        try tree.load("2.00")
        driven.advance(by: 1)
        #expect(driven.turns(until: "the followed record") { ShowCommand.render(record, as: .plain) == "2.00" })
        withExtendedLifetime(subscription) {}
    }
}
