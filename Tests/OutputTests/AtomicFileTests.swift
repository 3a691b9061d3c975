import Foundation
import Output
import TestSupport
import Testing

@Suite("atomic file")
struct AtomicFileTests {
    @Test func writesTheContentsWithMode0600AndLeavesNoTemporaryFile() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let target = directory.appending("clock.plain")
        try AtomicFile.write(Array("12:00\n".utf8), to: target)
        try AtomicFile.write(Array("12:01\n".utf8), to: target)
        #expect(try fileText(target) == "12:01\n")
        #expect(try directory.names() == ["clock.plain"])
        let status = try #require(fileStatus(target))
        #expect(status.st_mode & 0o7777 == 0o600)
    }

    /// The temporary name is the same for every write of a file (`.<name>.<pid>`); one already taken (left by a
    /// crashed process whose pid came back) is left alone and a numbered name is used instead.
    @Test func aTakenTemporaryNameIsLeftAloneAndAnotherUsed() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let target = directory.appending("clock.plain")
        let leftover = directory.appending(".clock.plain.\(getpid())")
        try Data("left over".utf8).write(to: URL(fileURLWithPath: leftover))
        try AtomicFile.write(Array("12:00\n".utf8), to: target)
        try AtomicFile.write(Array("12:01\n".utf8), to: target)
        #expect(try fileText(target) == "12:01\n")
        #expect(try fileText(leftover) == "left over")
        #expect(try directory.names() == [".clock.plain.\(getpid())", "clock.plain"])
    }

    @Test func setsTheModeAskedForWhateverTheOldFileHad() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let target = directory.appending("shared.txt")
        try AtomicFile.write([], to: target, permissions: 0o644)
        #expect(try #require(fileStatus(target)).st_mode & 0o7777 == 0o644)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)).isEmpty)
        try AtomicFile.write(Array("x".utf8), to: target)
        #expect(try #require(fileStatus(target)).st_mode & 0o7777 == 0o600)
    }

    @Test func writesLargeContentsWhole() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let target = directory.appending("big")
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try AtomicFile.write(bytes, to: target)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: target))) == bytes)
    }

    @Test func aMissingDirectoryThrowsAndLeavesNothing() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let target = directory.appending("missing/clock.plain")
        #expect {
            try AtomicFile.write(Array("x".utf8), to: target)
        } throws: { error in
            let error = try #require(error as? OutputError)
            return error.call == "open" && error.errno == ENOENT && error.description.contains("missing/.clock.plain.")
                && error.description.hasSuffix("No such file or directory")
        }
        #expect(try directory.names().isEmpty)
    }

    @Test func aFailedRenameRemovesTheTemporaryFileAndKeepsTheTarget() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        // rename(2) cannot replace a non-empty directory with a file.
        let target = directory.appending("busy")
        try FileManager.default.createDirectory(atPath: target + "/inside", withIntermediateDirectories: true)
        #expect {
            try AtomicFile.write(Array("x".utf8), to: target)
        } throws: { error in
            (error as? OutputError)?.call == "rename"
        }
        #expect(try directory.names() == ["busy"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: target) == ["inside"])
    }
}
