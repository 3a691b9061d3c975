import Formats
import Foundation
import Glibc
import Runtime
import TestSupport
import Testing

@testable import Daemon

/// A sampled widget's status file and record as the daemon writes them from one sample to the next, on a clock the
/// test moves (`DrivenDaemon`); how `list` reads the two back is `InstanceStatusRecordTests`'.
@Suite("the daemon on a driven clock: a sampled widget's status and record", .waitsOnThreadsOfItsOwn)
struct DrivenStatusFileTests {
    private static func inode(_ path: String) -> UInt64? {
        var status = stat()
        return lstat(path, &status) == 0 ? UInt64(status.st_ino) : nil
    }

    /// Follows `widgets` on the updates socket, as `show --follow` does, until the daemon says their records are
    /// current.
    private static func follow(_ widgets: [String], on driven: DrivenDaemon) throws -> UpdatesClient {
        let follower = try UpdatesClient(driven, following: widgets)
        var answers: [String] = []
        #expect(
            driven.turns(until: "the answer") {
                (answers += follower.messages().texts, answers).1 == [UpdatesMessage.current]
            })
        return follower
    }

    /// A widget sampled every 2 s, followed, changes its record at every sample of a new value, with the next reload's
    /// date in it, and leaves its status file as it was.
    @Test func aSampledWidgetsStatusFileStaysWhileItsRecordCarriesTheNextReload() throws {
        let tree = try FakeProcTree()
        defer { tree.directory.remove() }
        let driven = try DrivenDaemon(config: "widgets:\n  load: {kind: load, interval: 2s}\n", kinds: tree.kinds)
        #expect(driven.turns(until: "the first sample") { driven.hasTimeline("load") })
        let follower = try Self.follow(["load"], on: driven)
        defer { withExtendedLifetime(follower) {} }
        let statusPath = driven.runtime + "/status/load.json"
        let recordPath = driven.output + "/load.json"
        var status = Self.inode(statusPath)
        var records: Set<UInt64> = []
        for load in 1...4 {
            // Written at the start and again with the first reload the policy asked for; from then on it stays.
            if load == 2 { status = Self.inode(statusPath) }
            // Each sample reads another value: one that read the same would leave the record.
            try tree.load("\(load).00")
            driven.advance(by: 2)
            #expect(
                driven.turns(until: "the sample of \(load).00") { driven.read("load.plain") == "\(load).00\n" },
                "\(driven.log)")
            let record = try #require(InstanceRecord.read(from: recordPath))
            #expect(record.reloadAfter == driven.clock.now.addingTimeInterval(2), "the next sample's date")
            records.insert(try #require(Self.inode(recordPath)))
        }
        #expect(records.count == 4, "a new record at each new value")
        #expect(Self.inode(statusPath) == status, "the status file was written again: \(driven.log)")
        let written = try #require(FileManager.default.contents(atPath: statusPath))
        #expect(
            String(decoding: written, as: UTF8.self)
                == #"{"policy":"after","reloading":false,"reloadsWithPolicy":true}"#)
    }

    /// A sample that reads the same value as the one before leaves the record as it was (only its dates would change),
    /// while a widget sampled in the same turns shows its new values; a new value is written at once. (How `list`
    /// names the next reload once the record's date passed: `InstanceStatusRecordTests`.)
    @Test func aSampleOfTheSameValueLeavesTheRecordAndANewOneIsWrittenAtOnce() throws {
        let tree = try FakeProcTree()
        defer { tree.directory.remove() }
        let driven = try DrivenDaemon(
            config: "widgets:\n  load: {kind: load, interval: 1s}\n  cpu: {kind: cpu, interval: 1s}\n",
            kinds: tree.kinds)
        let follower = try Self.follow(["load"], on: driven)
        defer { withExtendedLifetime(follower) {} }
        let recordPath = driven.output + "/load.json"
        #expect(
            driven.turns(until: "both widgets") {
                InstanceRecord.read(from: recordPath)?.entries.first?.content.text == "0.25"
                    && driven.read("cpu.plain") == "75%\n"
            })
        let kept = try #require(Self.inode(recordPath))
        // Two more samples of the CPU, each its own value; the load is sampled in the same turns and reads the same.
        try tree.stat(busy: 55, idle: 85)
        driven.advance(by: 1)
        #expect(driven.turns(until: "a quarter busy") { driven.read("cpu.plain") == "25%\n" })
        try tree.stat(busy: 105, idle: 135)
        driven.advance(by: 1)
        #expect(driven.turns(until: "half busy") { driven.read("cpu.plain") == "50%\n" })
        #expect(Self.inode(recordPath) == kept, "the load's record was written again with nothing new in it")
        try tree.load("1.50")
        driven.advance(by: 1)
        #expect(driven.turns(until: "the new load") { driven.read("load.plain") == "1.50\n" })
        // Written in the same turn, just after the bar file.
        #expect(Self.inode(recordPath) != kept, "no new record for the new value")
    }

    /// A sampled widget's record is written only while someone follows it: a bar that only shows the widget costs no
    /// record per sample. A follow writes the record that is behind before the daemon answers; a stopping daemon
    /// writes every record that is behind, for readers to find once it is gone.
    @Test func aSampledWidgetsRecordIsWrittenWhileFollowedAndWhenTheDaemonStops() throws {
        let tree = try FakeProcTree()
        defer { tree.directory.remove() }
        let driven = try DrivenDaemon(config: "widgets:\n  load: {kind: load, interval: 1s}\n", kinds: tree.kinds)
        let recordPath = driven.output + "/load.json"
        func recorded() -> String? { InstanceRecord.read(from: recordPath)?.entries.first?.content.text }
        #expect(driven.turns(until: "the first sample") { driven.read("load.plain") == "0.25\n" })
        #expect(recorded() == nil, "no one follows it")
        try tree.load("1.50")
        driven.advance(by: 1)
        #expect(driven.turns(until: "the new sample") { driven.read("load.plain") == "1.50\n" })
        #expect(recorded() == nil)
        var follower: UpdatesClient? = try Self.follow(["load"], on: driven)
        #expect(recorded() == "1.50", "written before the answer")
        try tree.load("2.75")
        driven.advance(by: 1)
        #expect(driven.turns(until: "the followed sample") { recorded() == "2.75" })
        follower = nil
        #expect(driven.turns(until: "the follower gone") { driven.daemon.updateSubscribers.descriptors.count == 1 })
        try tree.load("3.00")
        driven.advance(by: 1)
        #expect(driven.turns(until: "the sample") { driven.read("load.plain") == "3.00\n" })
        #expect(recorded() == "2.75", "no one follows it any more")
        driven.stop()
        #expect(recorded() == "3.00")
        withExtendedLifetime(follower) {}
    }

    /// The unchanged status of a sampled widget is not looked for at each sample: `status/` is watched, and a status
    /// file someone deletes is written at the widget's next sample.
    @Test func aStatusFileSomeoneDeletesIsWrittenAtTheNextSample() throws {
        let tree = try FakeProcTree()
        defer { tree.directory.remove() }
        let driven = try DrivenDaemon(config: "widgets:\n  load: {kind: load, interval: 2s}\n", kinds: tree.kinds)
        #expect(driven.turns(until: "the first sample") { driven.hasTimeline("load") })
        let statusPath = driven.runtime + "/status/load.json"
        // Past the first reload the policy asked for, after which the status stays the same.
        for load in 1...2 {
            try tree.load("\(load).00")
            driven.advance(by: 2)
            #expect(driven.turns(until: "the sample of \(load).00") { driven.read("load.plain") == "\(load).00\n" })
        }
        #expect(driven.daemon.stateFiles.statusDeletionsWatched)
        for load in 3...4 {
            try FileManager.default.removeItem(atPath: statusPath)
            try tree.load("\(load).00")
            driven.advance(by: 2)
            #expect(
                driven.turns(until: "the deleted status file is back") { Self.inode(statusPath) != nil },
                "\(driven.log)")
            // And from then on left as it is again.
            let written = Self.inode(statusPath)
            try tree.load("\(load).50")
            driven.advance(by: 2)
            #expect(driven.turns(until: "the sample of \(load).50") { driven.read("load.plain") == "\(load).50\n" })
            #expect(Self.inode(statusPath) == written)
        }
    }
}
