import Foundation
import Glibc
import Runtime
import System
import TestSupport
import Testing
import Timelines

@testable import CLI
@testable import Daemon

/// The updates socket's hard cases (`Daemon+Updates`, `UpdateSubscribers`, `DaemonSubscription`): connections beyond
/// the limit, a socket file deleted, a client the daemon turns away, and records read by commands that wait for the
/// daemon. The real daemon in this process on a clock the test moves, with real sockets.
@Suite("the daemon on a driven clock: the updates socket's hard cases", .waitsOnThreadsOfItsOwn)
struct DrivenUpdatesSocketTests {
    private static let config = "widgets:\n  t:\n    kind: ticks\nbars:\n  main: [t]\n"

    private static func ticks() -> ScriptedKind {
        ScriptedKind(name: "ticks") { now in
            Timeline(
                entries: (0..<10).map {
                    TimelineEntry(date: now.addingTimeInterval(Double($0)), content: EntryContent(text: "tick \($0)"))
                }, policy: .never)
        }
    }

    private static func daemon(_ config: String = config) throws -> DrivenDaemon {
        let driven = try DrivenDaemon(config: config, kinds: [ticks()])
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("t") })
        return driven
    }

    /// How many times the log says `text`.
    private static func count(_ text: String, in log: String) -> Int {
        log.components(separatedBy: text).count - 1
    }

    /// The loop polls its own descriptors, the listener and every connection kept: those over the limit are closed at
    /// once, never polled, and the others are served. Clients that connect together between two turns of the loop
    /// (an i3blocks config of `show --follow` blocks starting) all get through to the daemon, refused or not: a
    /// connection the backlog had no room for would look like no daemon at all to its client.
    @Test func connectionsOverTheLimitAreRefusedAndTheOthersServed() throws {
        let driven = try Self.daemon()
        var clients: [UpdatesClient] = []
        for _ in 0..<UpdateSubscribers.maxConnections { clients.append(try UpdatesClient(driven, following: ["t"])) }
        let over = try (0..<8).map { _ in try UpdatesClient(driven, bar: "main") }
        #expect(
            driven.turns(until: "every answer") {
                clients.allSatisfy { !$0.messages().texts.isEmpty }
            })
        #expect(driven.turns(until: "the refusals") { over.allSatisfy { $0.messages().closed } })
        #expect(driven.log.contains("refused 8 connections: 32 are open"), "\(driven.log)")
        #expect(driven.daemon.updateSubscribers.descriptors.count == 1 + UpdateSubscribers.maxConnections)
        clients.removeLast()
        #expect(
            driven.turns(until: "the room") {
                driven.daemon.updateSubscribers.descriptors.count == UpdateSubscribers.maxConnections
            })
        let bar = try UpdatesClient(driven, bar: "main")
        #expect(driven.turns(until: "its line") { !bar.messages().texts.isEmpty })
    }

    /// `rm $XDG_RUNTIME_DIR/widgetd/updates`: the daemon listens on it again, as it makes its FIFO again, so bars and
    /// readers started later still find it.
    @Test func aDeletedUpdatesSocketIsListenedOnAgain() throws {
        let driven = try Self.daemon()
        let path = driven.runtime + "/updates"
        // The daemon's own start touched the runtime directory (its FIFO, lock, daemon.json): that repair first.
        driven.advance(by: DirectoryGuard.repairDelay)
        #expect(driven.daemon.directoryGuard.runtimeRepairDue == nil)
        #expect(unlink(path) == 0)
        driven.settle()
        driven.advance(by: DirectoryGuard.repairDelay)
        #expect(driven.turns(until: "the socket back") { access(path, F_OK) == 0 }, "\(driven.log)")
        let bar = try UpdatesClient(driven, bar: "main")
        #expect(driven.turns(until: "its line") { !bar.messages().texts.isEmpty })
        // The socket put back is the daemon's own: no repair after repair.
        for _ in 0..<3 { driven.advance(by: DirectoryGuard.repairDelay) }
        #expect(Self.count("was deleted: listening on it again", in: driven.log) == 1, "\(driven.log)")
        #expect(driven.daemon.directoryGuard.runtimeRepairDue == nil)
    }

    /// Takes turns of the daemon and of a client's loop (`widgetd bar --bar`'s): the client takes in what wakes it.
    private static func turns(_ count: Int, of driven: DrivenDaemon, and subscription: DaemonSubscription) {
        for _ in 0..<count {
            driven.turn(timeout: .milliseconds(5))
            if let descriptor = subscription.descriptor,
                (try? Poller.waitUntilReadable(descriptor, timeout: .zero)) == true
            {
                _ = subscription.take()
            }
        }
    }

    /// A follower knows from the daemon's answer whether the daemon says `written` at its turns' ends: one from before
    /// it answers `current` alone, and `widgetd bar --widgets` then makes its line of the records a turn wrote by their
    /// timing. The daemon's `written` that comes before the answer is no answer.
    @Test func aFollowerKnowsFromTheAnswerWhetherTheDaemonMarksItsTurns() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.path + "/updates"
        let listener = try PacketSocket.listen(at: path)
        // The daemon's ends are kept: one that closed would make its follower readable.
        var daemons: [PacketSocket] = []
        func follower(answeredWith messages: [String]) throws -> DaemonSubscription {
            let subscription = try DaemonSubscription(
                socketPath: path, requests: UpdatesMessage.follows(["a"]), messageLimit: 64)
            let daemon = try #require(try listener.accept())
            daemons.append(daemon)
            for message in messages {
                #expect(Array(message.utf8).withUnsafeBytes { daemon.send($0) } == .sent)
            }
            subscription.waitForAnswers(within: .seconds(10))
            return subscription
        }
        let old = try follower(answeredWith: ["current"])
        #expect(old.isConnected && !old.marksTurns)
        let current = try follower(answeredWith: [UpdatesMessage.written, UpdatesMessage.current])
        #expect(current.isConnected && current.marksTurns)
        // Both messages taken: the `written` did not end the wait for the answer.
        #expect((try? Poller.waitUntilReadable(try #require(current.descriptor), timeout: .zero)) == false)
        withExtendedLifetime(daemons) {}
    }

    /// A bar the daemon's config lacks is turned away once, and then waits for a change (the daemon's socket
    /// replaced, the config edited) instead of asking again and again: each ask costs the daemon a turn and a line of
    /// its log.
    @Test func aSubscriptionTheDaemonTurnsAwayIsNotMadeAgainAndAgain() throws {
        let driven = try Self.daemon()
        let refusal = "'subscribe side' asks for no bar or widgets of the config"
        let subscription = try DaemonSubscription(
            socketPath: driven.runtime + "/updates", request: .subscribe(bar: "side"), messageLimit: 1024)
        #expect(driven.turns(until: "the refusal") { driven.log.contains(refusal) })
        Self.turns(50, of: driven, and: subscription)
        #expect(Self.count(refusal, in: driven.log) == 1, "\(driven.log)")
        #expect(!subscription.isConnected)
        #expect(driven.daemon.updateSubscribers.descriptors.count == 1, "no connection asks again")
    }

    /// A subscribed bar that leaves the config is let go; it asks again at once, as after a restart, and is turned
    /// away once, not for ever.
    @Test func aSubscribedBarThatLeavesTheConfigIsTurnedAwayOnce() throws {
        let driven = try Self.daemon()
        let subscription = try DaemonSubscription(
            socketPath: driven.runtime + "/updates", request: .subscribe(bar: "main"), messageLimit: 1024)
        var first: [UInt8]?
        #expect(
            driven.turns(until: "the first line") {
                if let descriptor = subscription.descriptor,
                    (try? Poller.waitUntilReadable(descriptor, timeout: .zero)) == true
                {
                    first = subscription.take() ?? first
                }
                return first != nil
            })
        try driven.editConfig("widgets:\n  t:\n    kind: ticks\n")
        let refusal = "'subscribe main' asks for no bar or widgets of the config"
        #expect(
            driven.turns(until: "the refusal") {
                Self.turns(1, of: driven, and: subscription)
                return driven.log.contains(refusal)
            })
        Self.turns(50, of: driven, and: subscription)
        #expect(Self.count(refusal, in: driven.log) == 1, "\(driven.log)")
        #expect(!subscription.isConnected)
        #expect(driven.daemon.updateSubscribers.descriptors.count == 1, "no connection asks again")
    }

    /// `reload --wait` prints what the reload brought, read from the record: a sampled widget's record is written only
    /// while followed, so the command follows it to read it, as `show` does.
    @Test func reloadWaitPrintsASampledWidgetsNewValue() throws {
        let tree = try FakeProcTree()
        defer { tree.directory.remove() }
        let driven = try DrivenDaemon(config: "widgets:\n  load: {kind: load, interval: 60s}\n", kinds: tree.kinds)
        #expect(driven.turns(until: "the first sample") { driven.read("load.plain") == "0.25\n" })
        try tree.load("1.50")
        let result = driven.commandTakingTurns(["reload", "load", "--wait"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "1.50\n")
    }

    /// The samples of one deadline are written a record at a time in one turn; a follower is told once, when the turn
    /// is over (`UpdatesMessage.written`), and by then every record it follows holds the new sample. A turn that wrote
    /// none of its records tells it nothing.
    @Test func aFollowerIsToldOnceWhenEveryRecordOfATurnIsWritten() throws {
        let tree = try FakeProcTree()
        defer { tree.directory.remove() }
        let driven = try DrivenDaemon(
            config: "widgets:\n" + ["a", "b", "c"].map { "  \($0): {kind: load, interval: 1s}\n" }.joined(),
            kinds: tree.kinds)
        #expect(driven.turns(until: "the first samples") { driven.read("c.plain") == "0.25\n" })
        let follower = try UpdatesClient(driven, following: ["a", "b"])
        var said: [String] = []
        #expect(driven.turns(until: "the answer") { (said += follower.messages().texts, said).1.count == 1 })
        #expect(said == [UpdatesMessage.current])
        func record(_ name: String) -> String { driven.read(name + ".json") ?? "" }
        try tree.load("1.50")
        driven.advance(by: 1)
        said = []
        var recordsWhenTold: [String] = []
        #expect(
            driven.turns(until: "the turn's end") {
                said += follower.messages().texts
                if said.isEmpty { return false }
                recordsWhenTold = [record("a"), record("b")]
                return true
            })
        #expect(said == [UpdatesMessage.written])
        #expect(recordsWhenTold.allSatisfy { $0.contains("1.50") }, "\(recordsWhenTold)")
        // The same value again: no record is written, and nothing is said once the turn is over.
        driven.advance(by: 1)
        driven.settle()
        #expect(follower.messages().texts == [])
        // Two followers of different records of one turn: each is told, once.
        let other = try UpdatesClient(driven, following: ["c"])
        said = []
        #expect(driven.turns(until: "the answer") { (said += other.messages().texts, said).1.count == 1 })
        try tree.load("2.75")
        driven.advance(by: 1)
        var heard: [[String]] = [[], []]
        #expect(
            driven.turns(until: "both told") {
                heard[0] += follower.messages().texts
                heard[1] += other.messages().texts
                return heard.allSatisfy { !$0.isEmpty }
            })
        driven.settle()
        heard[0] += follower.messages().texts
        heard[1] += other.messages().texts
        #expect(heard == [[UpdatesMessage.written], [UpdatesMessage.written]])
    }

    /// A sampled widget's record whose write failed, and which no one follows any more, is not wanted until someone
    /// does: it is no failing write, which a `--wait` would report and the retry would try every 30 s for nothing.
    @Test func aRecordNoOneFollowsIsNoFailingWrite() throws {
        let tree = try FakeProcTree()
        defer { tree.directory.remove() }
        let driven = try DrivenDaemon(config: "widgets:\n  load: {kind: load, interval: 1s}\n", kinds: tree.kinds)
        #expect(driven.turns(until: "the first sample") { driven.read("load.plain") == "0.25\n" })
        var follower: UpdatesClient? = try UpdatesClient(driven, following: ["load"])
        var answers: [String] = []
        #expect(
            driven.turns(until: "the answer") {
                (answers += follower?.messages().texts ?? [], answers).1 == [UpdatesMessage.current]
            })
        // A directory where the record goes: its next write fails.
        let record = driven.output + "/load.json"
        #expect(unlink(record) == 0 && mkdir(record, 0o700) == 0)
        driven.settle()
        driven.advance(by: DirectoryGuard.repairDelay)
        try tree.load("1.50")
        driven.advance(by: 1)
        #expect(driven.turns(until: "the failed write") { driven.daemon.outputRetry.failure(of: "load") != nil })
        follower = nil
        #expect(driven.turns(until: "the follower gone") { driven.daemon.updateSubscribers.descriptors.count == 1 })
        try tree.load("2.00")
        driven.advance(by: 1)
        driven.advance(by: OutputRetry.longestDelay)
        #expect(driven.daemon.outputRetry.failure(of: "load") == nil, "\(driven.log)")
        #expect(driven.daemon.outputRetry.isEmpty)
        #expect(driven.writeToFIFO("reload load ack=after\n"))
        #expect(driven.turns(until: "the answer") { driven.acknowledgement("after") != nil })
        #expect(driven.acknowledgement("after")?.hasPrefix("done") == true, "\(driven.acknowledgement("after") ?? "")")
        withExtendedLifetime(follower) {}
    }

    /// `list` follows every widget it shows, not only those its own registry says are sampled: when the daemon's config
    /// does not check here (a kind this command does not see), its rows come from the records and carry no rule, and a
    /// sampled widget's record would be as the last follower left it.
    @Test func listShowsASampledWidgetsValueWhenItsRowsComeFromTheRecords() throws {
        let tree = try FakeProcTree()
        defer { tree.directory.remove() }
        let driven = try DrivenDaemon(
            config: "widgets:\n  load: {kind: load, interval: 1s}\n  t:\n    kind: ticks\n",
            kinds: tree.kinds + [Self.ticks()])
        #expect(driven.turns(until: "the first sample") { driven.read("load.plain") == "0.25\n" })
        var follower: UpdatesClient? = try UpdatesClient(driven, following: ["load"])
        var answers: [String] = []
        #expect(
            driven.turns(until: "the answer") {
                (answers += follower?.messages().texts ?? [], answers).1 == [UpdatesMessage.current]
            })
        follower = nil
        #expect(driven.turns(until: "the follower gone") { driven.daemon.updateSubscribers.descriptors.count == 1 })
        try tree.load("1.50")
        driven.advance(by: 1)
        #expect(driven.turns(until: "the new sample") { driven.read("load.plain") == "1.50\n" })
        let result = driven.command(["list"])
        #expect(result.status == 0, "\(result.stderr)")
        let row = result.stdout.split(separator: "\n").first { $0.hasPrefix("load ") }
        #expect(row?.contains("1.50") == true, "\(result.stdout)")
        withExtendedLifetime(follower) {}
    }
}
