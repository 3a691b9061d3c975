import Formats
import Foundation
import Output
import TestSupport
import Testing
import Timelines

@Suite("output writer")
struct OutputWriterTests {
    /// A temporary root with the writer's directory `out` (made by the writer) and `elsewhere`, where a symbolic link
    /// put in place of `out` points.
    static func outAndElsewhere() throws -> (TestDirectory, directory: String, elsewhere: String, OutputWriter) {
        let root = try TestDirectory()
        let directory = root.appending("out")
        let elsewhere = root.appending("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        do {
            return (root, directory, elsewhere, try OutputWriter(directory: directory))
        } catch {
            root.remove()
            throw error
        }
    }

    @Test func createsTheDirectoryAndItsParentsWithMode0700() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let directory = root.appending("run/widgetd/out")
        _ = try OutputWriter(directory: directory)
        for path in [root.appending("run"), root.appending("run/widgetd"), directory] {
            let status = try #require(fileStatus(path))
            #expect(status.st_mode & S_IFMT == S_IFDIR)
            #expect(status.st_mode & 0o7777 == 0o700, "mode of \(path)")
        }
        // An existing directory is used as it is.
        _ = try OutputWriter(directory: directory + "/")
    }

    @Test func anUnchangedWriteIsSkipped() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try OutputWriter(directory: directory.path)
        let target = directory.appending("clock.waybar")
        #expect(try writer.write(instance: "clock", format: .waybar, contents: "one\n"))
        let first = try #require(fileStatus(target))
        #expect(try !writer.write(instance: "clock", format: .waybar, contents: "one\n"))
        let second = try #require(fileStatus(target))
        #expect(second.st_ino == first.st_ino)
        #expect(second.st_mtim.tv_sec == first.st_mtim.tv_sec && second.st_mtim.tv_nsec == first.st_mtim.tv_nsec)
        // Other formats and instances are separate files.
        #expect(try writer.write(instance: "clock", format: .plain, contents: "one\n"))
        #expect(try writer.write(instance: "other", format: .waybar, contents: "one\n"))
        // Canonically equivalent strings are still different bytes, and a changed file is a new one.
        #expect(try writer.write(instance: "clock", format: .waybar, contents: "caf\u{E9}\n"))
        let composed = try #require(fileStatus(target))
        #expect(try writer.write(instance: "clock", format: .waybar, contents: "cafe\u{301}\n"))
        #expect(try #require(fileStatus(target)).st_ino != composed.st_ino)
        #expect(try fileText(target) == "cafe\u{301}\n")
        // Beside them, the one file written more than once has its hidden spare (AtomicFile+Spare), and nothing else.
        let spare = ".clock.waybar.\(getpid())"
        #expect(try directory.names() == [spare, "clock.plain", "clock.waybar", "other.waybar"].sorted())
        writer.removeSpares()
        #expect(try directory.names() == ["clock.plain", "clock.waybar", "other.waybar"])
    }

    @Test func aSymlinkedDirectoryIsRefused() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let real = root.appending("real")
        let link = root.appending("link")
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        for path in [link, link + "/"] {
            #expect {
                _ = try OutputWriter(directory: path)
            } throws: { error in
                (error as? OutputError)?.description
                    == "\(root.path)/link: is a symbolic link; give the directory it points to"
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: real).isEmpty)
    }

    @Test func aDirectorySwappedForALinkIsNeverWrittenThroughUntilAProperOneIsBack() throws {
        let (root, directory, elsewhere, writer) = try Self.outAndElsewhere()
        defer { root.remove() }
        #expect(try writer.write(instance: "clock", format: .plain, contents: "12:00\n"))
        #expect(writer.isCurrent)

        #expect(rename(directory, directory + ".old") == 0)
        #expect(symlink(elsewhere, directory) == 0)
        #expect(!writer.isCurrent)
        #expect {
            try writer.write(instance: "clock", format: .plain, contents: "12:01\n")
        } throws: { error in
            (error as? OutputError)?.reason == "was replaced by a symbolic link; not writing through it"
        }
        #expect(throws: OutputError.self) { try writer.recreate() }
        #expect(throws: OutputError.self) {
            try writer.writeRecord(
                InstanceRecord(
                    instance: "clock", kind: "clock", family: .systemSmall, entries: [],
                    fallback: EntryContent(text: "x")))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        // The moved directory kept what it had; nothing was written to it after the swap either.
        #expect(try fileText(directory + ".old/clock.plain") == "12:00\n")

        // A proper directory back: taken, checked, and written again (the memory of the last write was dropped).
        #expect(unlink(directory) == 0)
        try writer.recreate()
        #expect(writer.isCurrent)
        #expect(try writer.write(instance: "clock", format: .plain, contents: "12:01\n"))
        #expect(try fileText(directory + "/clock.plain") == "12:01\n")
    }

    @Test func aBatchChecksTheDirectoryOnceAndTheNextBatchFindsItReplaced() throws {
        let (root, directory, elsewhere, writer) = try Self.outAndElsewhere()
        defer { root.remove() }
        try writer.inOneBatch { () throws in
            for second in 0..<3 {
                #expect(try writer.write(instance: "c\(second)", format: .plain, contents: "12:00:0\(second)\n"))
            }
        }
        for second in 0..<3 {
            #expect(
                try fileText(directory + "/c\(second).plain") == "12:00:0\(second)\n")
        }
        #expect(rename(directory, directory + ".old") == 0)
        #expect(symlink(elsewhere, directory) == 0)
        // The check of a batch is made afresh: a directory swapped between two boundaries is never written through.
        writer.inOneBatch {
            #expect(throws: OutputError.self) {
                try writer.write(instance: "c0", format: .plain, contents: "12:00:03\n")
            }
            #expect(throws: OutputError.self) {
                try writer.write(instance: "c1", format: .plain, contents: "12:00:03\n")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }

    @Test func aWatchedDirectoryIsCheckedAgainOnlyWhenItsWatcherSaysSo() throws {
        let (root, directory, elsewhere, writer) = try Self.outAndElsewhere()
        defer { root.remove() }
        writer.isWatched = true
        #expect(try writer.write(instance: "clock", format: .plain, contents: "12:00\n"))
        // Moved away: the watcher has not said so yet, so the write goes to the directory checked before (where it
        // now is), never through the link put in its place.
        #expect(rename(directory, directory + ".old") == 0)
        #expect(symlink(elsewhere, directory) == 0)
        #expect(try writer.write(instance: "clock", format: .plain, contents: "12:01\n"))
        #expect(try fileText(directory + ".old/clock.plain") == "12:01\n")
        #expect(!writer.isCurrent, "isCurrent always looks at the path")
        // Told, the writer checks the path and refuses it until a proper directory is back.
        writer.directoryMayHaveChanged()
        #expect(throws: OutputError.self) {
            try writer.write(instance: "clock", format: .plain, contents: "12:02\n")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        #expect(unlink(directory) == 0)
        try writer.recreate()
        #expect(try writer.write(instance: "clock", format: .plain, contents: "12:03\n"))
        #expect(try fileText(directory + "/clock.plain") == "12:03\n")
    }

    @Test func aFileOrAnotherUsersDirectoryIsRefused() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let file = root.appending("file")
        try AtomicFile.write([], to: file)
        #expect(throws: OutputError.self) {
            _ = try OutputWriter(directory: file)
        }
        // Only root can give a directory away, so only then is there a foreign one to refuse.
        if geteuid() == 0 {
            let foreign = root.appending("foreign")
            try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: false)
            #expect(chown(foreign, 65534, 65534) == 0)
            #expect {
                _ = try OutputWriter(directory: foreign)
            } throws: { error in
                (error as? OutputError)?.reason == "belongs to uid 65534, not to this user"
            }
        }
    }

    @Test func removeDeletesEveryFileOfTheInstance() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try OutputWriter(directory: directory.path)
        let record = InstanceRecord(
            instance: "clock", kind: "clock", family: .systemSmall, entries: [],
            fallback: EntryContent(text: "12:00"))
        for format in OutputFormat.allCases {
            try writer.write(instance: "clock", format: format, contents: record.rendered(as: format))
        }
        try writer.writeRecord(record)
        try writer.write(instance: "clockwork", format: .plain, contents: "keep\n")
        #expect(try directory.names().count == OutputFormat.allCases.count + 2)
        try writer.remove(instance: "clock")
        #expect(try directory.names() == ["clockwork.plain"])
        // Removing again is fine, and a write after a removal is not skipped.
        try writer.remove(instance: "clock")
        #expect(try writer.write(instance: "clock", format: .plain, contents: record.rendered(as: .plain)))
    }

    /// A sampled widget's record (one entry, a later reload) whose view is remembered: another with only its dates
    /// changed holds the same view; new content, a deleted file (forgotten) or a plain write do not.
    @Test func aRememberedRecordViewIsTheSameWhenOnlyItsDatesChanged() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try OutputWriter(directory: directory.path)
        func sample(_ text: String, at seconds: TimeInterval) -> InstanceRecord {
            let date = Date(timeIntervalSince1970: seconds)
            return InstanceRecord(
                instance: "load", kind: "load", family: .accessoryInline,
                entries: [TimelineEntry(date: date, content: EntryContent(text: text))],
                fallback: EntryContent(text: "-.--"), reloadAfter: date.addingTimeInterval(5))
        }
        #expect(!writer.holdsSameView(as: sample("0.25", at: 1000)))
        try writer.writeRecord(sample("0.25", at: 1000), remembersView: true)
        #expect(writer.holdsSameView(as: sample("0.25", at: 1005)))
        #expect(!writer.holdsSameView(as: sample("0.50", at: 1005)))
        var failing = sample("0.25", at: 1005)
        failing.failure = "cannot read /proc/loadavg"
        #expect(!writer.holdsSameView(as: failing))
        writer.forget(fileNamed: "load.json")
        #expect(!writer.holdsSameView(as: sample("0.25", at: 1005)))
        try writer.writeRecord(sample("0.25", at: 1010), remembersView: true)
        try writer.writeRecord(sample("0.25", at: 1015))
        #expect(!writer.holdsSameView(as: sample("0.25", at: 1020)), "a write that does not remember forgets")
        // A record of two entries, or of a timeline that asks for no later reload, has no such view.
        var two = sample("0.25", at: 1000)
        two.entries.append(TimelineEntry(date: Date(timeIntervalSince1970: 1001), content: EntryContent(text: "x")))
        #expect(two.steadyView == nil)
        var never = sample("0.25", at: 1000)
        never.reloadAfter = nil
        #expect(never.steadyView == nil)
    }

    @Test(arguments: ["", ".hidden", "../escape", "a/b"])
    func unsafeInstanceNamesAreRefused(_ name: String) throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try OutputWriter(directory: directory.path)
        #expect(throws: OutputError.self) {
            try writer.write(instance: name, format: .plain, contents: "x\n")
        }
        #expect(try directory.names().isEmpty)
    }
}
