import Foundation
import System
import TestSupport
import Testing

@testable import Output

/// A file's first write as an unnamed file linked in whole (`AtomicFile.writeNew`), and the writer's way back to a
/// temporary file renamed when the name exists or the filesystem cannot.
@Suite("new output files")
struct NewFileTests {
    /// The events inotify queued for `directory` by now: the writes queue them before they return.
    private func events(_ inotify: Inotify) -> [Inotify.Event] {
        inotify.readEvents()
    }

    private func watching(_ directory: TestDirectory) throws -> Inotify {
        let inotify = try Inotify()
        try inotify.watch(
            directory: directory.path, mask: [.create, .movedTo, .modify, .closeWrite, .attributes, .delete])
        return inotify
    }

    private func opened(_ directory: TestDirectory) throws -> Int32 {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(descriptor >= 0, "cannot open \(directory.path)")
        return descriptor
    }

    @Test func aNewFileAppearsWholeWithTheModeAskedForAndIsNeverWrittenUnderItsName() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let descriptor = try opened(directory)
        defer { close(descriptor) }
        let inotify = try watching(directory)
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let outcome = try AtomicFile.writeNew(
            bytes, named: "big.plain", in: descriptor, at: directory.path + "/", permissions: 0o640)
        #expect(outcome == .linked)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.appending("big.plain")))) == bytes)
        #expect(try #require(fileStatus(directory.appending("big.plain"))).st_mode & 0o7777 == 0o640)
        #expect(try directory.names() == ["big.plain"])
        // Under its name the file was only ever created, by the link, after every byte was written: no reader could
        // open it before. No temporary name was made either.
        let named = events(inotify).filter { !$0.name.hasPrefix("#") }
        #expect(named.map(\.name) == ["big.plain"])
        #expect(named.map(\.mask) == [.create])
    }

    @Test func anExistingFileIsLeftAsItWas() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let target = directory.appending("clock.plain")
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
        let before = try #require(fileStatus(target))
        let descriptor = try opened(directory)
        defer { close(descriptor) }
        let outcome = try AtomicFile.writeNew(
            Array("new\n".utf8), named: "clock.plain", in: descriptor, at: directory.path + "/")
        #expect(outcome == .nameTaken)
        #expect(try fileText(target) == "old\n")
        #expect(try #require(fileStatus(target)).st_ino == before.st_ino)
        #expect(try directory.names() == ["clock.plain"])
    }

    @Test func aSymbolicLinkInTheNamesPlaceIsNotWrittenThrough() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let elsewhere = directory.appending("elsewhere")
        #expect(symlink(elsewhere, directory.appending("clock.plain")) == 0)
        let descriptor = try opened(directory)
        defer { close(descriptor) }
        let outcome = try AtomicFile.writeNew(
            Array("new\n".utf8), named: "clock.plain", in: descriptor, at: directory.path + "/")
        #expect(outcome == .nameTaken)
        #expect(fileStatus(elsewhere) == nil)
        #expect(try directory.names() == ["clock.plain"])
    }

    /// What `openat(O_TMPFILE)` answers where it cannot work: a filesystem without it (EOPNOTSUPP), a kernel before it
    /// (EISDIR, EINVAL). This machine's filesystems all have it, so the open is stood in for; the rest is real.
    @Test(arguments: [EOPNOTSUPP, EISDIR, EINVAL])
    func aFilesystemWithoutUnnamedFilesIsReportedAndNothingWritten(_ code: Int32) throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let descriptor = try opened(directory)
        defer { close(descriptor) }
        let outcome = try AtomicFile.writeNew(
            Array("new\n".utf8), named: "clock.plain", in: descriptor, at: directory.path + "/", permissions: 0o600,
            opening: { _, _ in
                errno = code
                return -1
            })
        #expect(outcome == .unsupported)
        #expect(try directory.names().isEmpty)
    }

    @Test func anOpenFailingOtherwiseIsAnError() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let descriptor = try opened(directory)
        defer { close(descriptor) }
        #expect {
            try AtomicFile.writeNew(
                Array("new\n".utf8), named: "clock.plain", in: descriptor, at: directory.path + "/",
                permissions: 0o600,
                opening: { _, _ in
                    errno = ENOSPC
                    return -1
                })
        } throws: { error in
            (error as? OutputError)?.errno == ENOSPC
                && "\(error)".contains(directory.appending("clock.plain"))
        }
    }

    // MARK: The writer

    /// Writes `clock.plain` and `quote.plain` through `writer` and checks that both hold what was written, whole.
    func writeClockAndQuote(
        with writer: OutputWriter, in directory: TestDirectory, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(
            try writer.write(instance: "clock", format: .plain, contents: "12:00\n"), sourceLocation: sourceLocation)
        #expect(
            try writer.write(instance: "quote", format: .plain, contents: "Be kind.\n"), sourceLocation: sourceLocation)
        #expect(
            try fileText(directory.appending("clock.plain")) == "12:00\n",
            sourceLocation: sourceLocation)
        #expect(
            try fileText(directory.appending("quote.plain")) == "Be kind.\n",
            sourceLocation: sourceLocation)
        #expect(try directory.names() == ["clock.plain", "quote.plain"], sourceLocation: sourceLocation)
    }

    @Test func aWriterLinksNewFilesAndRenamesOverTheFilesItFoundAtOpen() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        // The last run's file.
        try Data("last run\n".utf8).write(to: URL(fileURLWithPath: directory.appending("clock.plain")))
        let writer = try OutputWriter(directory: directory.path)
        let inotify = try watching(directory)
        try writeClockAndQuote(with: writer, in: directory)
        let seen = events(inotify)
        // The existing file was replaced by a rename, in one step; the new one was linked in.
        #expect(seen.contains { $0.name == "clock.plain" && $0.mask.contains(.movedTo) })
        #expect(!seen.contains { $0.name == "clock.plain" && $0.mask.contains(.create) })
        #expect(seen.filter { $0.name == "quote.plain" }.map(\.mask) == [.create])
    }

    @Test func aFileMadeAfterTheWriterOpenedIsStillReplacedByARename() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try OutputWriter(directory: directory.path)
        try Data("someone's\n".utf8).write(to: URL(fileURLWithPath: directory.appending("clock.plain")))
        let inotify = try watching(directory)
        #expect(try writer.write(instance: "clock", format: .plain, contents: "12:00\n"))
        #expect(try fileText(directory.appending("clock.plain")) == "12:00\n")
        #expect(try directory.names() == ["clock.plain"])
        let seen = events(inotify).filter { $0.name == "clock.plain" }
        #expect(seen.contains { $0.mask.contains(.movedTo) })
        #expect(!seen.contains { $0.mask.contains(.create) || $0.mask.contains(.modify) })
    }

    @Test func aWriterWhereUnnamedFilesFailRenamesAndStopsTrying() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try OutputWriter(directory: directory.path)
        let tries = Tries()
        writer.openUnnamed = { _, _ in
            tries.count += 1
            errno = EOPNOTSUPP
            return -1
        }
        let inotify = try watching(directory)
        try writeClockAndQuote(with: writer, in: directory)
        #expect(tries.count == 1)
        let seen = events(inotify)
        for name in ["clock.plain", "quote.plain"] {
            #expect(seen.filter { $0.name == name }.map(\.mask) == [.movedTo], "events of \(name)")
        }
    }
}

/// Counts the stood-in opens of `aWriterWhereUnnamedFilesFailRenamesAndStopsTrying` (one thread).
private final class Tries {
    var count = 0
}
