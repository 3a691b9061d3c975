import Foundation
import Output
import Synchronization
import TestSupport
import Testing

/// The output writer's spare files (`AtomicFile+Spare`): a file written again is replaced by exchanging it with a
/// rewritten spare, and a reader still sees the old file or the new one, whole.
@Suite("spare files")
struct SpareFileTests {
    /// The two versions the writer alternates between: different lengths, each all one byte, so a partial or mixed
    /// read is seen.
    static let long = [UInt8](repeating: UInt8(ascii: "a"), count: 9000)
    static let short = [UInt8](repeating: UInt8(ascii: "b"), count: 3000)

    static func isWhole(_ bytes: [UInt8]) -> Bool {
        bytes == long || bytes == short
    }

    @Test func aReaderNeverSeesAPartialFile() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try OutputWriter(directory: directory.path)
        let target = directory.appending("clock.plain")
        let readsDone = DispatchSemaphore(value: 0)
        let readers = (0..<2).map { _ in Reader(target, signalling: readsDone) }
        for reader in readers { reader.start() }
        var writes = 0
        // Until both readers have read often enough to have overlapped many writes (a bound, not a deadline: a
        // loaded machine only makes it slower).
        while writes < 4000 || readers.contains(where: { $0.reads < 200 }), writes < 2_000_000 {
            // Past the first 4000, at most one write per read (either reader's): on a busy machine the readers wait
            // for a core while the writer would run on alone, up to hundreds of thousands of writes ahead of them.
            // After a second without a read it writes on, so readers that stopped reading fail the expectations
            // below instead of hanging the test.
            if writes >= 4000 { _ = readsDone.wait(timeout: .now() + 1) }
            let text = String(decoding: writes % 2 == 0 ? Self.long : Self.short, as: UTF8.self)
            try writer.write(instance: "clock", format: .plain, contents: text)
            writes += 1
        }
        #expect(readers.allSatisfy { $0.reads >= 200 }, "the readers hardly read")
        for reader in readers { reader.stop() }
        for reader in readers {
            let partial = reader.partial
            #expect(partial.count == 0, "\(partial.count) reads were no version, the first \(partial.first ?? 0) bytes")
            #expect(reader.missing == 0, "the file was missing \(reader.missing) times")
        }
        #expect(Self.isWhole(Array(try Data(contentsOf: URL(fileURLWithPath: target)))))
    }

    @Test func aFileHeldOpenKeepsItsContentsAndItsInodeIsNotRewritten() throws {
        let clock = try HeldClockFile()
        defer { clock.directory.remove() }
        let (directory, writer, target, spare) = (clock.directory, clock.writer, clock.target, clock.spare)

        // With nobody reading, the file and its spare take turns: two inodes, rewritten.
        var inodes: [ino_t] = []
        for second in 3..<7 {
            try writer.write(instance: "clock", format: .plain, contents: "12:00:0\(second)\n")
            inodes.append(try #require(fileStatus(target)).st_ino)
            #expect(try fileText(target) == "12:00:0\(second)\n")
        }
        #expect(inodes[0] == inodes[2] && inodes[1] == inodes[3] && inodes[0] != inodes[1], "\(inodes)")
        let status = try #require(fileStatus(target))
        #expect(status.st_mode & 0o7777 == 0o600)

        // A reader opens the file and holds it while the writer goes on: the file it holds becomes the spare, is not
        // rewritten while it is open, and a new spare takes its place.
        let held = open(target, O_RDONLY | O_CLOEXEC)
        try #require(held >= 0)
        defer { close(held) }
        let heldInode = try #require(fileStatus(target)).st_ino
        for second in 7..<10 {
            try writer.write(instance: "clock", format: .plain, contents: "12:00:0\(second)\n")
            #expect(try fileText(target) == "12:00:0\(second)\n")
            #expect(try #require(fileStatus(target)).st_ino != heldInode)
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = pread(held, &buffer, buffer.count, 0)
            #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "12:00:06\n")
        }

        // A spare deleted by someone else is made again.
        unlink(spare)
        try writer.write(instance: "clock", format: .plain, contents: "12:00:10\n")
        try writer.write(instance: "clock", format: .plain, contents: "12:00:11\n")
        #expect(try fileText(target) == "12:00:11\n")
        #expect(fileStatus(spare) != nil)

        // Removing the instance removes its spare too.
        try writer.remove(instance: "clock")
        #expect(try directory.names().isEmpty)
    }

    @Test func leftoversOfProcessesNoLongerRunningAreRemovedAtStart() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        // No process has this number (far above any pid_max); 1 always runs.
        let gone = "2000000000"
        let kept = [
            "clock.plain", ".clock.plain.\(getpid())", ".clock.plain.1", ".hidden", ".a.b", "notes.txt.\(gone)",
        ]
        let left = [".clock.plain.\(gone)", ".clock.waybar.\(gone).3", ".clock.json.\(gone)"]
        for name in kept + left {
            #expect(FileManager.default.createFile(atPath: directory.appending(name), contents: Data("x".utf8)))
        }
        _ = try OutputWriter(directory: directory.path)
        #expect(try directory.names() == kept.sorted())
    }

    @Test func aKilledProcessNotYetReapedLeavesNothingEither() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        // A child that exits at once and is not waited for yet: a zombie, which `kill(pid, 0)` still finds.
        var child: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { for argument in arguments { free(argument) } }
        try #require(posix_spawn(&child, "/bin/true", nil, nil, arguments, environ) == 0)
        defer { waitpid(child, nil, 0) }
        let deadline = Date().addingTimeInterval(10)
        func isZombie() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8) else { return false }
            return stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") == true
        }
        while !isZombie(), Date() < deadline { sched_yield() }
        try #require(isZombie())
        #expect(FileManager.default.createFile(atPath: directory.appending(".clock.plain.\(child)"), contents: nil))
        _ = try OutputWriter(directory: directory.path)
        #expect(try directory.names().isEmpty)
    }

    /// Opens, reads and closes the file again and again in small pieces, yielding between them so that writes land
    /// while it reads; keeps every read that is not a whole version.
    final class Reader: Sendable {
        let path: String
        private let state = Mutex(State())

        struct State {
            var stopping = false
            var stopped = false
            var reads = 0
            var missing = 0
            var partial: [Int] = []
        }

        /// Signalled after each read, whole or not.
        let readsDone: DispatchSemaphore?

        init(_ path: String, signalling readsDone: DispatchSemaphore? = nil) {
            self.path = path
            self.readsDone = readsDone
        }

        var reads: Int { state.withLock { $0.reads } }
        var missing: Int { state.withLock { $0.missing } }
        /// The lengths of the reads that were no whole version.
        var partial: [Int] { state.withLock { $0.partial } }

        func start() {
            Thread.detachNewThread { [self] in
                while !state.withLock({ $0.stopping }) {
                    readOnce()
                }
                state.withLock { $0.stopped = true }
            }
        }

        /// Stops the thread and waits until it has.
        func stop() {
            state.withLock { $0.stopping = true }
            while !state.withLock({ $0.stopped }) { sched_yield() }
        }

        private func readOnce() {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                // Before the first write the file is not there yet; after it, it must always be.
                if errno == ENOENT { state.withLock { if $0.reads > 0 { $0.missing += 1 } } }
                return
            }
            var bytes: [UInt8] = []
            var piece = [UInt8](repeating: 0, count: 1000)
            while true {
                let count = read(descriptor, &piece, piece.count)
                if count <= 0 { break }
                bytes += piece.prefix(count)
                sched_yield()
            }
            close(descriptor)
            let whole = SpareFileTests.isWhole(bytes)
            state.withLock {
                $0.reads += 1
                if !whole { $0.partial.append(bytes.count) }
            }
            readsDone?.signal()
        }
    }
}
