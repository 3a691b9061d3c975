import Config
import Control
import Formats
import Foundation
import Glibc
import Testing
import TimeZones
import Timelines

@testable import Daemon
@testable import Runtime

/// The one writer of the daemon's state files (`StateFiles`), without a daemon: real files in a temporary directory.
@Suite("the daemon's state files: one writer, one failure and retry path")
struct StateFilesTests {
    private static let start = Date(timeIntervalSince1970: 2_000_000_000)

    /// A writer over a temporary runtime and state directory, its log captured.
    private struct Fixture {
        let directory: TemporaryDirectory
        let paths: DaemonPaths
        let lines = Captured()
        var files: StateFiles
        let engine: Engine<WidgetInstance>

        init() throws {
            directory = try TemporaryDirectory()
            let root = directory.url.path
            paths = DaemonPaths(
                environment: ["XDG_RUNTIME_DIR": root + "/run", "XDG_STATE_HOME": root + "/state", "HOME": root],
                settings: Settings())
            try FileManager.default.createDirectory(atPath: root + "/run", withIntermediateDirectories: true)
            try paths.control.prepare()
            // status/ as the daemon makes it: closed to others, or it is refused.
            for path in [paths.status, paths.entries] {
                try FileManager.default.createDirectory(
                    atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            let lines = self.lines
            let log = Log(level: .debug) { lines.append($0) }
            files = StateFiles(paths: paths, memory: try EntryMemory(directory: paths.entries), log: log)
            let quote = WidgetInstance(name: "quote", kind: "quotes", family: .systemSmall)
            engine = Engine(
                instances: [quote], placeholders: ["quote": EntryContent(text: "Small steps count.")],
                now: StateFilesTests.start)
        }

        var status: InstanceStatus<WidgetInstance> { engine.status(of: "quote", now: StateFilesTests.start)! }
    }

    @Test func everyStateFileIsWrittenWhereItsReaderLooks() throws {
        var fixture = try Fixture()
        defer { fixture.directory.remove() }
        let state = DaemonState(pid: 42, config: "/c", output: "/o", startedAt: "2033-05-18T03:33:20Z", configErrors: 0)
        fixture.files.write(state, now: Self.start)
        #expect(DaemonState.read(from: fixture.paths.control) == state)

        fixture.files.write(fixture.status, of: "quote", now: Self.start)
        let status = try #require(InstanceStatusRecord.read(instance: "quote", in: fixture.paths.status))
        #expect(status == InstanceStatusRecord(fixture.status))

        let done = try #require(ControlCommand.AckToken("done"))
        let failed = try #require(ControlCommand.AckToken("failed"))
        fixture.files.acknowledge(done, failure: nil, widgets: ["quote", "clock"], now: Self.start)
        fixture.files.acknowledge(failed, failure: "quote: no", now: Self.start)
        // The outcome, and the widgets written, whose text a `--wait` prints (`Acknowledgement`).
        #expect(
            try String(contentsOfFile: fixture.paths.control.acknowledgement(done), encoding: .utf8)
                == "done\nquote\nclock\n")
        #expect(
            try String(contentsOfFile: fixture.paths.control.acknowledgement(failed), encoding: .utf8) == "quote: no\n")

        let record = try #require(fixture.engine.record(of: "quote"))
        fixture.files.keep(record, now: Self.start, unlessKept: false)
        let kept = try Data(contentsOf: URL(fileURLWithPath: EntryMemory.path(of: "quote", in: fixture.paths.entries)))
        #expect(try JSONDecoder().decode(InstanceRecord.self, from: kept) == record.kept(at: Self.start))

        // Each file is whole and the user's alone: written by rename, mode 0600, no temporary file left.
        for path in [
            DaemonState.path(in: fixture.paths.control),
            InstanceStatusRecord.path(for: "quote", in: fixture.paths.status),
            fixture.paths.control.acknowledgement(failed),
        ] {
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600, "\(path)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.paths.status).filter {
            $0.hasPrefix(".")
        }
        #expect(leftovers.isEmpty)
        #expect(fixture.lines.all.isEmpty, "nothing failed, nothing logged")

        fixture.files.forgetKept("quote")
        fixture.files.removeStatus(of: "quote")
        #expect(!FileManager.default.fileExists(atPath: EntryMemory.path(of: "quote", in: fixture.paths.entries)))
        #expect(InstanceStatusRecord.read(instance: "quote", in: fixture.paths.status) == nil)
    }

    /// One definition per file (`StateRecord`): the layout readers and scripts see stays as it was.
    /// A stop leaves a kept entry that already holds the same alone; a timeline that arrives replaces it without reading
    /// it first, and a stop whose entry changed replaces it too.
    @Test func aKeptEntryIsReadBackOnlyAtAStop() throws {
        var fixture = try Fixture()
        defer { fixture.directory.remove() }
        let record = try #require(fixture.engine.record(of: "quote"))
        let path = EntryMemory.path(of: "quote", in: fixture.paths.entries)
        func inode() -> ino_t? {
            var info = stat()
            return stat(path, &info) == 0 ? info.st_ino : nil
        }
        fixture.files.keep(record, now: Self.start, unlessKept: false)
        let first = try #require(inode())
        fixture.files.keep(record, now: Self.start, unlessKept: true)
        #expect(inode() == first, "a stop rewrote a kept entry that was already the same")
        fixture.files.keep(record, now: Self.start, unlessKept: false)
        let arrived = try #require(inode())
        #expect(arrived != first, "an arriving timeline's entry was not written")
        var changed = record
        changed.fallback = EntryContent(text: "Something else.")
        fixture.files.keep(changed, now: Self.start, unlessKept: true)
        #expect(inode() != arrived, "a stop kept an entry that had changed")
        let kept = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try JSONDecoder().decode(InstanceRecord.self, from: kept) == changed.kept(at: Self.start))
    }

    /// The status file, written by hand, is what JSONEncoder writes with sorted keys (slashes aside), with or without
    /// its optional fields, whatever its text holds.
    @Test(arguments: [
        #"{"reloading":true}"#,
        #"{"policy":"after 2033-05-18T05:33:20+02:00","nextReload":"2033-05-18T05:33:20+02:00","reloading":false,"#
            + #""lastError":"q: \"quoted\" back\\slash\nnew line\ttab\u0001\u001f é ✓ /path/to"}"#,
        #"{"policy":"never","reloading":false,"lastError":""}"#,
        #"{"policy":"after","reloading":false,"reloadsWithPolicy":true}"#,
    ])
    func aStatusFileIsWhatJSONEncoderWrites(_ json: String) throws {
        let record = try JSONDecoder().decode(InstanceStatusRecord.self, from: Data(json.utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = String(decoding: try encoder.encode(record), as: UTF8.self)
        #expect(String(decoding: record.encoded(), as: UTF8.self) == expected)
        #expect(try JSONDecoder().decode(InstanceStatusRecord.self, from: Data(record.encoded())) == record)
    }

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
        #expect(inode(recordPath) != kept, "a new value is a new record")
    }

    @Test func eachStateRecordKeepsItsLayout() throws {
        let state = DaemonState(
            pid: 7, config: "/c/w.yaml", output: "/o", startedAt: "2033-05-18T03:33:20Z", configErrors: 2)
        #expect(
            String(decoding: state.encoded(), as: UTF8.self) == """
                {
                  "config" : "/c/w.yaml",
                  "configErrors" : 2,
                  "output" : "/o",
                  "pid" : 7,
                  "startedAt" : "2033-05-18T03:33:20Z"
                }

                """)
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let status = String(decoding: InstanceStatusRecord(fixture.status).encoded(), as: UTF8.self)
        #expect(status.hasPrefix("{\"") && status.hasSuffix("}") && !status.contains(" : "), "compact: \(status)")
        #expect(status.contains("\"reloading\":"), "\(status)")
    }

    @Test func aFailedStatusWriteIsLoggedOnceAndRetriedWithABackOffUntilItWorks() throws {
        var fixture = try Fixture()
        defer { fixture.directory.remove() }
        try FileManager.default.removeItem(atPath: fixture.paths.status)
        fixture.files.write(fixture.status, of: "quote", now: Self.start)
        fixture.files.write(fixture.status, of: "quote", now: Self.start.addingTimeInterval(0.1))
        #expect(fixture.lines.all.count == 1, "one line until it works: \(fixture.lines.all)")
        #expect(fixture.lines.all.first?.contains("quote: cannot write its status") == true)
        #expect(fixture.files.isFailing(.status("quote")))
        #expect(fixture.files.nextDeadline == Self.start.addingTimeInterval(OutputRetry.firstDelay))

        // Still failing: the next try waits twice as long, and says nothing new.
        fixture.files.doHousekeeping(now: Self.start.addingTimeInterval(0.5))
        #expect(fixture.files.retryDue == Self.start.addingTimeInterval(1.5))
        #expect(fixture.lines.all.count == 1)

        // Space is back: the retry writes the latest contents, and the back-off is over.
        try FileManager.default.createDirectory(
            atPath: fixture.paths.status, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        fixture.files.doHousekeeping(now: Self.start.addingTimeInterval(1.5))
        #expect(InstanceStatusRecord.read(instance: "quote", in: fixture.paths.status) != nil)
        #expect(!fixture.files.isFailing(.status("quote")))
        #expect(fixture.files.nextDeadline == nil)
        #expect(fixture.lines.all.last == "widgetd: info: the state files are written again")
    }

    /// Issue 38, item 8: status files and acknowledgements are written by descriptor, never through a link put where
    /// `status/` or `acks/` was, whether the directory was held open when the link came (the write goes to the
    /// directory that was checked, or fails) or is opened after (the link is refused, and said so).
    @Test func noStateFileIsWrittenOrRemovedThroughALink() throws {
        var fixture = try Fixture()
        defer { fixture.directory.remove() }
        let elsewhere = fixture.directory.url.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: elsewhere + "/quote.json"))
        let token = try #require(ControlCommand.AckToken("t1"))
        fixture.files.write(fixture.status, of: "quote", now: Self.start)
        fixture.files.acknowledge(token, failure: nil, now: Self.start)
        for path in [fixture.paths.status, fixture.paths.control.acknowledgements] {
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: elsewhere)
        }
        // Held open: the writes go to the directories removed, which take no new file.
        fixture.files.write(fixture.status, of: "quote", now: Self.start)
        fixture.files.acknowledge(token, failure: nil, now: Self.start)
        fixture.files.removeStatus(of: "quote")
        // Opened again, as after the runtime directory's watch saw the change: the links are refused.
        fixture.files.releaseRuntimeDirectory()
        fixture.files.write(fixture.status, of: "other", now: Self.start)
        fixture.files.acknowledge(token, failure: "no", now: Self.start)
        fixture.files.removeStatus(of: "quote")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == ["quote.json"])
        #expect(try String(contentsOfFile: elsewhere + "/quote.json", encoding: .utf8) == "someone else's")
        let refusals = fixture.lines.all.filter { $0.contains("is a symbolic link; refusing to follow it") }
        #expect(refusals.count == 2, "\(fixture.lines.all)")
    }

    @Test func aRemovedWidgetsFailedStatusIsNotWrittenAgain() throws {
        var fixture = try Fixture()
        defer { fixture.directory.remove() }
        try FileManager.default.removeItem(atPath: fixture.paths.status)
        fixture.files.write(fixture.status, of: "quote", now: Self.start)
        #expect(fixture.files.retryDue != nil)
        fixture.files.removeStatus(of: "quote")
        #expect(fixture.files.retryDue == nil && !fixture.files.isFailing(.status("quote")))
    }

    @Test func aFailedAcknowledgementIsLoggedEachTimeAndNotRetried() throws {
        var fixture = try Fixture()
        defer { fixture.directory.remove() }
        try FileManager.default.removeItem(atPath: fixture.paths.control.acknowledgements)
        for name in ["a", "b"] {
            fixture.files.acknowledge(try #require(ControlCommand.AckToken(name)), failure: nil, now: Self.start)
        }
        #expect(fixture.lines.all.count == 2)
        #expect(fixture.lines.all.allSatisfy { $0.hasPrefix("widgetd: warning: cannot acknowledge ") })
        #expect(fixture.files.nextDeadline == nil, "the waiting client reports it; nothing to retry or remove")
    }

    @Test func acknowledgementFilesNobodyTookGoAfterTheirLifetime() throws {
        var fixture = try Fixture()
        defer { fixture.directory.remove() }
        let token = try #require(ControlCommand.AckToken("late"))
        fixture.files.acknowledge(token, failure: nil, now: Self.start)
        let path = fixture.paths.control.acknowledgement(token)
        #expect(fixture.files.nextDeadline == Self.start.addingTimeInterval(AcknowledgementFiles.lifetime))
        fixture.files.doHousekeeping(now: Self.start.addingTimeInterval(AcknowledgementFiles.lifetime - 1))
        #expect(FileManager.default.fileExists(atPath: path))
        fixture.files.doHousekeeping(now: Self.start.addingTimeInterval(AcknowledgementFiles.lifetime))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(fixture.files.nextDeadline == nil)
    }

    @Test func daemonStateGoesAtTheStopOnlyWhileItNamesThisProcess() throws {
        var fixture = try Fixture()
        defer { fixture.directory.remove() }
        let theirs = DaemonState(pid: 1, config: "/c", output: "/o", startedAt: "x", configErrors: 0)
        fixture.files.write(theirs, now: Self.start)
        fixture.files.removeDaemonState()
        #expect(DaemonState.read(from: fixture.paths.control) == theirs)
        var ours = theirs
        ours.pid = getpid()
        fixture.files.write(ours, now: Self.start)
        fixture.files.removeDaemonState()
        #expect(DaemonState.read(from: fixture.paths.control) == nil)
    }
}
