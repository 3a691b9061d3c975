import Foundation
import TestSupport
import Testing

@testable import Output

/// Inside a batch (`OutputWriter.inOneBatch`), the held files rewritten take their new names together at its end
/// (`OutputWriter+DeferredExchanges`): a watcher is woken once for them, and nothing is lost on the way.
@Suite("deferred exchanges")
struct DeferredExchangeTests {
    /// A writer in a fresh directory with `count` files (`w0.plain`, …) written three times each: all held open with
    /// their spares.
    struct HeldFiles {
        let directory: TestDirectory
        let writer: OutputWriter
        let count: Int

        init(count: Int) throws {
            directory = try TestDirectory()
            writer = try OutputWriter(directory: directory.path)
            self.count = count
            for index in 0..<count {
                for text in ["a\n", "b\n", "c\n"] {
                    try writer.write(instance: "w\(index)", format: .plain, contents: text)
                }
            }
        }

        func path(_ index: Int) -> String { directory.appending("w\(index).plain") }

        func contents(_ index: Int) throws -> String { try String(contentsOfFile: path(index), encoding: .utf8) }

        func write(_ index: Int, _ text: String) throws {
            try writer.write(instance: "w\(index)", format: .plain, contents: text)
        }
    }

    @Test func heldFilesWrittenInABatchTakeTheirNamesTogetherAtItsEnd() throws {
        let files = try HeldFiles(count: 3)
        defer { files.directory.remove() }
        #expect(files.writer.heldFileCount == 3)
        let before = try (0..<3).map { try #require(fileStatus(files.path($0))).st_ino }
        try files.writer.inOneBatch {
            for index in 0..<3 { try files.write(index, "d\(index)\n") }
            // Written to the spares, not yet exchanged: every name still shows the last version.
            for index in 0..<3 { #expect(try files.contents(index) == "c\n") }
            #expect(files.writer.heldSpares.hasPendingExchanges)
        }
        #expect(!files.writer.heldSpares.hasPendingExchanges)
        for index in 0..<3 {
            #expect(try files.contents(index) == "d\(index)\n")
            // Exchanged, not renamed over: each name now holds the other inode of its pair.
            #expect(try #require(fileStatus(files.path(index))).st_ino != before[index])
        }
        // Outside a batch, a write is exchanged at once, and the pairs still alternate.
        try files.write(0, "e\n")
        #expect(try files.contents(0) == "e\n")
        #expect(try #require(fileStatus(files.path(0))).st_ino == before[0])
        #expect(files.writer.heldFileCount == 3)
        #expect(files.writer.takeFailedWrites().isEmpty)
    }

    @Test func aFileWrittenTwiceInABatchEndsWithItsLastVersion() throws {
        let files = try HeldFiles(count: 1)
        defer { files.directory.remove() }
        try files.writer.inOneBatch {
            try files.write(0, "first\n")
            // The second write lands the first before it reuses the pair: the exchange must not swap it back.
            try files.write(0, "second, longer\n")
            #expect(try files.contents(0) == "first\n")
        }
        #expect(try files.contents(0) == "second, longer\n")
        try files.write(0, "third\n")
        #expect(try files.contents(0) == "third\n")
        #expect(files.writer.heldFileCount == 1)
    }

    @Test func atMostALimitOfExchangesWait() throws {
        let limit = OutputWriter.exchangesDeferredAtMost
        let files = try HeldFiles(count: limit + 1)
        defer { files.directory.remove() }
        try #require(files.writer.heldFileCount == limit + 1)
        try files.writer.inOneBatch {
            for index in 0...limit { try files.write(index, "new\n") }
            // The first `limit` landed when the last of them was written; the one after waits for the end.
            for index in 0..<limit { #expect(try files.contents(index) == "new\n") }
            #expect(try files.contents(limit) == "c\n")
        }
        #expect(try files.contents(limit) == "new\n")
    }

    @Test func aNameDeletedBeforeTheExchangeIsWrittenByName() throws {
        let files = try HeldFiles(count: 2)
        defer { files.directory.remove() }
        let spare = files.directory.appending(".w1.plain.\(getpid())")
        try files.writer.inOneBatch {
            try files.write(0, "file deleted\n")
            try files.write(1, "spare deleted\n")
            unlink(files.path(0))
            unlink(spare)
        }
        // Both written again as new files, with no spare: the one the test deleted held the only copy of its text.
        #expect(try files.contents(0) == "file deleted\n")
        #expect(try files.contents(1) == "spare deleted\n")
        #expect(files.writer.takeFailedWrites().isEmpty)
        #expect(files.writer.heldFileCount == 0)
        #expect(try files.directory.names().sorted() == ["w0.plain", "w1.plain"])
        // And they are held again once rewritten often.
        for text in ["x\n", "y\n", "z\n"] {
            try files.write(0, text)
            try files.write(1, text)
        }
        #expect(try files.contents(1) == "z\n")
        #expect(files.writer.heldFileCount == 2)
    }

    /// Someone puts another file at a held file's name (`mv junk w0.plain`): the next write goes by name and every
    /// write after it shows, where the exchanges handed the name back and forth between the two files every second.
    @Test func aFileReplacedByNameIsWrittenByNameAndStaysTheWritersFile() throws {
        let files = try HeldFiles(count: 1)
        defer { files.directory.remove() }
        #expect(files.writer.heldFileCount == 1)
        let junk = files.directory.appending("junk")
        try "junk\n".write(toFile: junk, atomically: false, encoding: .utf8)
        #expect(rename(junk, files.path(0)) == 0)
        for index in 0..<6 {
            try files.writer.inOneBatch { try files.write(0, "t\(index)\n") }
            #expect(try files.contents(0) == "t\(index)\n")
        }
        for index in 6..<9 {
            try files.write(0, "t\(index)\n")
            #expect(try files.contents(0) == "t\(index)\n")
        }
        #expect(files.writer.heldFileCount == 1, "held again, on its own inodes")
        #expect(files.writer.takeFailedWrites().isEmpty)
    }

    @Test func anExchangeThatCannotBeMadeIsReportedAndNotSkippedNextTime() throws {
        let files = try HeldFiles(count: 1)
        defer { files.directory.remove() }
        try files.writer.inOneBatch {
            try files.write(0, "lost\n")
            // The directory goes away under the writer's descriptor: neither the exchange nor a write by name works.
            for name in try files.directory.names() { unlink(files.directory.appending(name)) }
            rmdir(files.directory.path)
        }
        let failures = files.writer.takeFailedWrites()
        #expect(failures.map(\.instance) == ["w0"])
        #expect(files.writer.takeFailedWrites().isEmpty)
        // Not remembered as written, so the same text written again is not taken for unchanged.
        #expect(files.writer.lastWritten["w0.plain"] == nil)
        try files.writer.recreate()
        #expect(try files.writer.write(instance: "w0", format: .plain, contents: "lost\n"))
        #expect(try files.contents(0) == "lost\n")
    }
}
