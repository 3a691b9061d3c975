import Control
import Foundation
import Glibc
import System
import TestSupport
import Testing

@Suite("control FIFO")
struct ControlFIFOTests {
    @Test func linesFromSeveralWritersArriveWhole() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let fifo = try ControlFIFO(path: directory.appending("control"))
        let writers = 4
        let linesEach = 150
        // Lengths up to the limit, so lines span pipe buffers and writers interleave under pressure.
        let expected = (0..<writers).map { writer in
            (0..<linesEach).map { index in
                let line = "intent w\(writer) next n=\(index) pad="
                return line + String(repeating: "x", count: (index * 431) % (4095 - line.utf8.count))
            }
        }
        let path = fifo.path
        let groups = expected.map { lines in
            onAnotherThread {
                guard let writer = try? RawWriter(path) else { return }
                for line in lines { try? writer.write(line + "\n") }
            }
        }
        let total = writers * linesEach
        let results = try readControlLines(from: fifo) { $0.count >= total }
        for group in groups { #expect(group.wait(timeout: .now() + 10) == .success) }

        #expect(results.count == total)
        let received = results.compactMap { result -> String? in
            if case .line(let line) = result { return line }
            Issue.record("unexpected \(result)")
            return nil
        }
        #expect(Set(received) == Set(expected.joined()))
        // Each writer's own lines keep their order.
        for (writer, lines) in expected.enumerated() {
            #expect(received.filter { $0.hasPrefix("intent w\(writer) ") } == lines)
        }
    }

    @Test func aWriterClosingDoesNotMakeTheReaderSpin() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let fifo = try ControlFIFO(path: directory.appending("control"))
        do {
            let writer = try RawWriter(fifo.path)
            try writer.write("reload all\n")
        }  // the writer closes here
        #expect(try readControlLines(from: fifo) { !$0.isEmpty } == [.line("reload all")])
        // The line came in a short read, which ends the call: the writer's close may still be waiting, and the next
        // call takes it (nothing more to read) and opens a fresh read end.
        if try !Poller.readable([fifo.fileDescriptor], timeout: .zero).isEmpty {
            #expect(fifo.readLines().isEmpty)
        }
        // Without a fresh read end this would be POLLHUP, at once and for ever.
        #expect(try Poller.readable([fifo.fileDescriptor], timeout: .milliseconds(200)).isEmpty)
        #expect(fifo.readLines().isEmpty)

        // And the next writer is heard as before.
        try RawWriter(fifo.path).write("config\n")
        #expect(try readControlLines(from: fifo) { !$0.isEmpty } == [.line("config")])
    }

    @Test func aMebibyteLineIsRejectedOnceAndTheNextLineArrives() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let fifo = try ControlFIFO(path: directory.appending("control"))
        let path = fifo.path
        let writing = onAnotherThread {
            // Far more than the pipe holds: this blocks until the reader has drained most of it.
            guard let writer = try? RawWriter(path) else { return }
            try? writer.write([UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20) + Array("\nreload all\n".utf8))
        }
        let results = try readControlLines(from: fifo) { $0.contains(.line("reload all")) }
        #expect(writing.wait(timeout: .now() + 10) == .success)
        #expect(results == [.rejected(reason: "line longer than 4096 bytes"), .line("reload all")])
    }

    @Test(arguments: [(4095, true), (4096, false), (5000, false)])
    func linesUpToPipeBufferSizeWithTheirNewlineAreAccepted(length: Int, accepted: Bool) throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let fifo = try ControlFIFO(path: directory.appending("control"))
        let line = "reload " + String(repeating: "n", count: length - 7)
        try RawWriter(fifo.path).write(line + "\nconfig\n")
        let results = try readControlLines(from: fifo) { $0.contains(.line("config")) }
        let first: ControlLineResult = accepted ? .line(line) : .rejected(reason: "line longer than 4096 bytes")
        #expect(results == [first, .line("config")])
    }

    @Test(
        arguments: [
            [0xFF, 0xFE], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0x72, 0x65, 0x80, 0x6C],
            [0xF4, 0x90, 0x80, 0x80],
        ] as [[UInt8]])
    func invalidUTF8IsRejected(bytes: [UInt8]) throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let fifo = try ControlFIFO(path: directory.appending("control"))
        try RawWriter(fifo.path).write(bytes + Array("\nreload all\n".utf8))
        let results = try readControlLines(from: fifo) { $0.contains(.line("reload all")) }
        #expect(results == [.rejected(reason: "not UTF-8"), .line("reload all")])
    }

    @Test(arguments: [1, 2, 3])
    func randomBytesNeverStopTheReader(seed: UInt64) throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let fifo = try ControlFIFO(path: directory.appending("control"))
        var random = SplitMix64(state: seed)
        // Mostly short lines with every byte value, a few very long ones, and some CRs and empty lines.
        var bytes: [UInt8] = []
        for _ in 0..<2000 {
            let length = Int.random(in: 0..<(Int.random(in: 0..<50, using: &random) == 0 ? 9000 : 60), using: &random)
            bytes += (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            bytes.append(UInt8(ascii: "\n"))
        }
        bytes += Array("\nreload all\n".utf8)
        let (send, path) = (bytes, fifo.path)
        let writing = onAnotherThread {
            guard let writer = try? RawWriter(path) else { return }
            try? writer.write(send)
        }
        let results = try readControlLines(from: fifo) { $0.last == .line("reload all") }
        #expect(writing.wait(timeout: .now() + 10) == .success)
        #expect(results.last == .line("reload all"))
        for result in results {
            switch result {
            case .line(let line):
                #expect(!line.isEmpty && !line.contains("\n") && line.utf8.count < 4096)
                _ = try? ControlCommand.parse(line)  // never crashes, whatever it says
            case .rejected(let reason):
                #expect(["not UTF-8", "line longer than 4096 bytes"].contains(reason))
            }
        }
    }

    @Test func partialLinesAreJoinedAcrossWrites() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let fifo = try ControlFIFO(path: directory.appending("control"))
        let writer = try RawWriter(fifo.path)
        try writer.write("rel")
        #expect(try Poller.waitUntilReadable(fifo.fileDescriptor, timeout: .seconds(5)))
        #expect(fifo.readLines().isEmpty, "half a line is not a line")
        try writer.write("oad a")
        #expect(try Poller.waitUntilReadable(fifo.fileDescriptor, timeout: .seconds(5)))
        #expect(fifo.readLines().isEmpty)
        // A CR before the newline goes; empty lines are skipped.
        try writer.write("ll\r\n\n\r\nconfig\n")
        #expect(try readControlLines(from: fifo) { $0.count >= 2 } == [.line("reload all"), .line("config")])
    }

    @Test func anExistingFIFOIsReusedAndRemovedOnStop() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("control")
        #expect(mkfifo(path, 0o600) == 0)
        let fifo = try ControlFIFO(path: path)
        try RawWriter(path).write("config\n")
        #expect(try readControlLines(from: fifo) { !$0.isEmpty } == [.line("config")])
        fifo.remove()
        #expect(access(path, F_OK) != 0)
    }

    @Test func aNewFIFOIsPrivate() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let fifo = try ControlFIFO(path: directory.appending("control"))
        var info = stat()
        #expect(lstat(fifo.path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFIFO)
        #expect(info.st_mode & 0o777 == 0o600)
    }
}
