import Control
import Foundation
import Glibc
import System
import TestSupport
import Testing

/// Issue 10, item 6: a line ends where its writer closed the FIFO, and the reader does not spin on the close.
@Suite("control FIFO: writers that close")
struct ControlFIFOEndOfWriterTests {
    @Test func aLineWithoutItsNewlineEndsWhenItsWriterCloses() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let fifo = try ControlFIFO(path: directory.appending("control"))
        try RawWriter(fifo.path).write("reload all")  // closed at once: `printf 'reload all' > control`
        #expect(try readControlLines(from: fifo) { !$0.isEmpty } == [.line("reload all")])
        // The next writer's line is a line of its own, not the rest of the first.
        try RawWriter(fifo.path).write("reload kind quotes\n")
        #expect(try readControlLines(from: fifo) { !$0.isEmpty } == [.line("reload kind quotes")])
    }

    @Test func aClosedWriterLeavesNothingToPollFor() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let fifo = try ControlFIFO(path: directory.appending("control"))
        try RawWriter(fifo.path).write("config")
        #expect(try readControlLines(from: fifo) { !$0.isEmpty } == [.line("config")])
        // POLLHUP would be reported at once and for ever on the old read end; the fresh one reports nothing.
        #expect(try Poller.readable([fifo.fileDescriptor], timeout: .milliseconds(200)).isEmpty)
        #expect(fifo.isOpen)
    }

    @Test func anOverlongLineEndsWithItsWriterToo() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let fifo = try ControlFIFO(path: directory.appending("control"))
        let path = fifo.path
        let writing = onAnotherThread {
            try? RawWriter(path).write([UInt8](repeating: UInt8(ascii: "a"), count: 100_000))
        }
        let results = try readControlLines(from: fifo) { !$0.isEmpty }
        #expect(writing.wait(timeout: .now() + 10) == .success)
        #expect(results == [.rejected(reason: "line longer than 4096 bytes")])
        // On a busy machine the rejection can come while the writer still has bytes to write: drain them and its
        // close (the FIFO stays readable until both are read) before the next writer opens, or its line would
        // continue the dropped one. The writer has closed, so whatever is left is readable at once.
        while try !Poller.readable([fifo.fileDescriptor], timeout: .milliseconds(50)).isEmpty {
            #expect(fifo.readLines().isEmpty)
        }
        try RawWriter(path).write("config\n")
        #expect(try readControlLines(from: fifo) { !$0.isEmpty } == [.line("config")])
    }

    @Test func aFIFOUnlinkedUnderTheReaderIsNoLongerInPlace() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let fifo = try ControlFIFO(path: directory.appending("control"))
        #expect(fifo.isInPlace)
        #expect(unlink(fifo.path) == 0)
        #expect(!fifo.isInPlace)
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(!fifo.isInPlace, "a new FIFO at the path is not this one")
        // Removing on stop leaves the newcomer alone.
        fifo.remove()
        #expect(access(fifo.path, F_OK) == 0)
    }

    @Test func aLockWhoseFileWasReplacedDoesNotUnlinkTheNewOne() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("lock")
        let first = try LockFile(path: path)
        #expect(first.isInPlace)
        #expect(unlink(path) == 0)  // an rm -rf of the runtime directory
        #expect(!first.isInPlace)
        let second = try LockFile(path: path)  // a second daemon, started meanwhile
        first.remove()  // the first one stops
        #expect(access(path, F_OK) == 0, "the second daemon's lock stays")
        #expect(throws: LockFileError.alreadyRunning(pid: getpid())) { try LockFile(path: path) }
        second.remove()
        #expect(access(path, F_OK) != 0)
    }
}
