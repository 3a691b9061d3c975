import Config
import Control
import Formats
import Foundation
import Glibc
import TestSupport
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
