import Formats
import Foundation
import Glibc
import Testing
import TimeZones
import Timelines

/// The daemon's status files and records as a running daemon writes them and `list` reads them (the writer itself,
/// without a daemon: DaemonTests' `StateFilesTests`; a sampled widget's from one sample to the next on a driven clock:
/// `DrivenStatusFileTests`; how `list` puts the record's date back: RuntimeTests' `InstanceStatusRecordTests`).
@Suite("the daemon's state files, end to end")
struct StatusFileEndToEndTests {
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
