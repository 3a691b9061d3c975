import Formats
import Foundation
import Glibc
import Testing
import TimeZones
import Timelines

/// The daemon's status files and records as a running daemon writes them and `list` reads them (the writer itself,
/// without a daemon: DaemonTests' `StateFilesTests`).
@Suite("the daemon's state files, end to end")
struct StatusFileEndToEndTests {
    /// A widget sampled every 2 s changes its record at every sample of a new value, with the next reload's date in it,
    /// and leaves
    /// its status file as it was: `list` takes the date from the record. (Its first samples may come sooner than the
    /// engine's 1 s spacing allows, then later than the policy asks, which the status says: it is looked at once they
    /// are past.)
    @Test func aSampledWidgetsStatusFileStaysWhileItsRecordCarriesTheNextReload() async throws {
        let system = try FakeLoadAverage()
        defer { system.remove() }
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  load: {kind: load, interval: 2s}\n",
            extraEnvironment: system.environment)
        #expect(await daemon.waitFor("the first sample") { daemon.hasTimeline("load") })
        let statusPath = daemon.runtime + "/status/load.json"
        let recordPath = daemon.output + "/load.json"
        func inode(_ path: String) -> UInt64? {
            var status = stat()
            return lstat(path, &status) == 0 ? UInt64(status.st_ino) : nil
        }
        // Each record seen, the next sample reads another value: one that read the same would leave the record.
        var load = 1
        func samples(_ count: Int) async -> Bool {
            var records: Set<UInt64> = []
            return await daemon.waitFor("\(count) samples", timeout: .seconds(15)) {
                if let node = inode(recordPath), records.insert(node).inserted {
                    load += 1
                    try? system.set("\(load).00")
                }
                return records.count > count
            }
        }
        #expect(await samples(2))
        let status = inode(statusPath)
        #expect(await samples(2))
        #expect(inode(statusPath) == status, "the status file was written again")
        let written = try #require(FileManager.default.contents(atPath: statusPath))
        #expect(
            String(decoding: written, as: UTF8.self)
                == #"{"policy":"after","reloading":false,"reloadsWithPolicy":true}"#)
        let list = try daemon.cli(["list"])
        let row = try #require(list.stdout.split(separator: "\n").first { $0.hasPrefix("load ") })
        let record = try #require(InstanceRecord.read(from: recordPath))
        let next = try #require(record.reloadAfter)
        let text = ISO8601Text.format(next, in: Zone.current)
        #expect(row.contains("after " + text) && row.contains(" " + text + " "), "\(row)")
    }

    /// A sample that reads the same value as the one before leaves the record as it was (only its dates would change),
    /// while a widget sampled in the same turns shows its new values; `list` then names the next reload by the kind's
    /// rule, the interval's next boundary, not the record's date that passed. A new value is written at once.
    @Test func aSampleOfTheSameValueLeavesTheRecordListNamesTheNextBoundary() async throws {
        let system = try FakeLoadAverage()
        defer { system.remove() }
        func stat(busy: Int, idle: Int) throws {
            _ = try system.tree.write(
                "proc/stat", "cpu  \(busy) 0 0 \(idle) 0 0 0 0 0 0\ncpu0 \(busy) 0 0 \(idle) 0 0 0 0 0 0\n")
        }
        try stat(busy: 30, idle: 10)
        let daemon = try DaemonUnderTest(
            config: """
                widgets:
                  load: {kind: load, interval: 1s}
                  cpu: {kind: cpu, interval: 1s}
                """,
            extraEnvironment: system.environment)
        let recordPath = daemon.output + "/load.json"
        #expect(
            await daemon.waitFor("both widgets") {
                InstanceRecord.read(from: recordPath)?.entries.first?.content.text == "0.25"
                    && daemon.read("cpu.plain") == "75%\n"
            })
        func inode(_ path: String) -> UInt64? {
            var status = Foundation.stat()
            return lstat(path, &status) == 0 ? UInt64(status.st_ino) : nil
        }
        let kept = try #require(inode(recordPath))
        let keptDate = try #require(InstanceRecord.read(from: recordPath)?.reloadAfter)
        // Two more samples of the CPU, each its own value; the load is sampled in the same turns and reads the same.
        try stat(busy: 55, idle: 85)
        #expect(await daemon.waitFor("a quarter busy") { daemon.read("cpu.plain") == "25%\n" })
        try stat(busy: 105, idle: 135)
        #expect(await daemon.waitFor("half busy") { daemon.read("cpu.plain") == "50%\n" })
        #expect(inode(recordPath) == kept, "the load's record was written again with nothing new in it")
        let before = Date()
        let row = try #require(try daemon.cli(["list"]).stdout.split(separator: "\n").first { $0.hasPrefix("load ") })
        let shown = try #require(
            row.split(separator: " ").compactMap { ISO8601Text.parse(String($0), defaultTimeZone: Zone.current) }.last,
            "\(row)")
        #expect(shown > keptDate && shown > before.addingTimeInterval(-1), "\(row), the record's date \(keptDate)")
        #expect(shown.timeIntervalSince1970 == shown.timeIntervalSince1970.rounded(), "a whole second: \(row)")
        try system.set("1.50")
        #expect(await daemon.waitFor("the new load") { daemon.read("load.plain") == "1.50\n" })
        // Written in the same turn, just after the bar file.
        #expect(await daemon.waitFor("a new record for the new value") { inode(recordPath) != kept })
    }
}
