import Foundation
import TestSupport
import Testing

@testable import Output

/// A held file whose length changed at its last write has its spare (the version just replaced) emptied before the
/// daemon sleeps, with the pages for its next contents kept (`HeldSpares.emptyRetiredSpares`), so the next rewrite
/// neither truncates nor allocates; and never under a reader.
@Suite("spares emptied after their exchange")
struct EmptiedSpareTests {
    @Test func aSpareReplacedByAnotherLengthIsEmptiedWithPagesForTheNextVersion() throws {
        let clock = try HeldClockFile()
        defer { clock.directory.remove() }
        let writer = clock.writer
        #expect(writer.heldFileCount == 1)
        #expect(!writer.hasSparesToEmpty)
        // Lengths that change at every write, as a quote's do at each reload.
        for text in ["12:00:03 long\n", "12:00:04\n", "12:00:05 longer still\n", "s\n", "12:00:07 long\n"] {
            try writer.write(instance: "clock", format: .plain, contents: text)
            #expect(try fileText(clock.target) == text)
            #expect(writer.hasSparesToEmpty)
            writer.emptyRetiredSpares()
            #expect(!writer.hasSparesToEmpty)
            let spare = try #require(fileStatus(clock.spare))
            #expect(spare.st_size == 0)
            // The pages stay, beyond the end of the file, for the next version.
            #expect(spare.st_blocks > 0)
            #expect(try fileText(clock.target) == text)
        }
        #expect(writer.heldFileCount == 1)
    }

    @Test func aRewriteOfTheSameLengthLeavesTheSpareAsItIs() throws {
        let clock = try HeldClockFile()
        defer { clock.directory.remove() }
        for second in 3..<6 {
            try clock.writer.write(instance: "clock", format: .plain, contents: "12:00:0\(second)\n")
            #expect(!clock.writer.hasSparesToEmpty)
        }
        // The spare is the version before the last, whole: nothing was truncated.
        #expect(try fileText(clock.spare) == "12:00:04\n")
    }

    @Test func aReaderOfTheReplacedVersionKeepsItAndTheSpareIsNotEmptied() throws {
        let clock = try HeldClockFile()
        defer { clock.directory.remove() }
        let writer = clock.writer
        let reader = open(clock.target, O_RDONLY | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }
        try writer.write(instance: "clock", format: .plain, contents: "12:00:03 long\n")
        writer.emptyRetiredSpares()
        // The lease is refused while the reader has it open: the spare keeps its bytes, and the reader its version.
        #expect(try #require(fileStatus(clock.spare)).st_size == 9)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = pread(reader, &buffer, buffer.count, 0)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "12:00:02\n")
        // The next rewrite still lands whole, and the reader's version stays.
        try writer.write(instance: "clock", format: .plain, contents: "12:00:04\n")
        #expect(try fileText(clock.target) == "12:00:04\n")
        let again = pread(reader, &buffer, buffer.count, 0)
        #expect(String(decoding: buffer.prefix(max(again, 0)), as: UTF8.self) == "12:00:02\n")
    }

    /// A page that a reader spliced into a pipe (`sendfile`: tmpfs lends the page itself) is given up by the emptying,
    /// not written over, so the pipe still holds that version when the inode is rewritten.
    @Test func aPipeHoldingASplicedPageKeepsItsVersionAcrossTheEmptying() throws {
        let clock = try HeldClockFile()
        defer { clock.directory.remove() }
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let file = open(clock.target, O_RDONLY | O_CLOEXEC)
        try #require(file >= 0)
        var offset: off_t = 0
        let sent = sendfile(ends[1], file, &offset, 64)
        close(file)
        close(ends[1])
        try #require(sent == 9)
        // The spliced inode becomes the spare, is emptied, and is then rewritten with a version of another length.
        try clock.writer.write(instance: "clock", format: .plain, contents: "12:00:03 long\n")
        clock.writer.emptyRetiredSpares()
        try clock.writer.write(instance: "clock", format: .plain, contents: "12:00:04 other\n")
        #expect(try fileText(clock.target) == "12:00:04 other\n")
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(ends[0], &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "12:00:02\n")
    }

    /// The rule the emptying relies on: a spare known to hold no bytes is written without a truncation, one of unknown
    /// size or another length is truncated first.
    @Test(arguments: [(0, "xycdefgh"), (nil, "xy"), (8, "xy")] as [(Int?, String)])
    func aSpareKnownToBeEmptyIsWrittenWithoutATruncation(size: Int?, expected: String) throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("spare")
        try "abcdefgh".write(toFile: path, atomically: false, encoding: .utf8)
        let descriptor = open(path, O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let outcome = try AtomicFile.rewriteLeased(descriptor, size: size, with: Array("xy".utf8), shownAs: path)
        #expect(outcome == nil)
        #expect(try fileText(path) == expected)
    }
}
