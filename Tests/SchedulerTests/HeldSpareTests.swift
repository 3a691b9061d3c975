import Foundation
import Testing

@testable import Output

/// The output writer holds the files it rewrites often open with their spares (`HeldSpares`), and drops them whenever
/// the names may have changed under it.
@Suite("held spare files")
struct HeldSpareTests {
    /// The names this process's descriptors have open in `directory`, sorted (a held descriptor follows its inode, so
    /// after an exchange it shows the inode's new name).
    static func openNames(in directory: TestDirectory) throws -> [String] {
        let prefix = directory.path + "/"
        var names: [String] = []
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry),
                target.hasPrefix(prefix)
            else { continue }
            names.append(String(target.dropFirst(prefix.count)))
        }
        return names.sorted()
    }

    @Test func aFileRewrittenIsHeldOpenWithItsSpareAndStillAlternates() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try OutputWriter(directory: directory.path)
        let target = directory.appending("clock.plain")
        let spare = ".clock.plain.\(getpid())"
        // The first write makes the file, the second its spare: a file written twice is not held (a widget's
        // placeholder and first entry). The third rewrites the spare soon after: from then on both are held.
        for second in 0..<2 { try writer.write(instance: "clock", format: .plain, contents: "12:00:0\(second)\n") }
        #expect(writer.heldFileCount == 0)
        #expect(try Self.openNames(in: directory).isEmpty)
        try writer.write(instance: "clock", format: .plain, contents: "12:00:02\n")
        #expect(writer.heldFileCount == 1)
        #expect(try Self.openNames(in: directory) == [spare, "clock.plain"])

        var inodes: [ino_t] = []
        for second in 3..<9 {
            // Lengths change, so a rewrite that kept old bytes past the new end would show.
            let text = second % 2 == 0 ? "12:00:0\(second) long\n" : "12:00:0\(second)\n"
            try writer.write(instance: "clock", format: .plain, contents: text)
            #expect(try String(contentsOfFile: target, encoding: .utf8) == text)
            inodes.append(try #require(fileStatus(target)).st_ino)
        }
        #expect(inodes[0] == inodes[2] && inodes[1] == inodes[3] && inodes[0] != inodes[1], "\(inodes)")
        #expect(try #require(fileStatus(target)).st_mode & 0o7777 == 0o600)
        #expect(try Self.openNames(in: directory) == [spare, "clock.plain"])
        #expect(writer.heldFileCount == 1)
    }

    @Test func aDeletedFileOrSpareIsWrittenByNameAndHeldAgain() throws {
        let clock = try HeldClockFile()
        defer { clock.directory.remove() }
        let (directory, writer, target, spare) = (clock.directory, clock.writer, clock.target, clock.spare)
        #expect(writer.heldFileCount == 1)

        // The spare deleted: the held inode has no name any more, so the write goes by name and makes a new spare.
        unlink(spare)
        try writer.write(instance: "clock", format: .plain, contents: "12:00:03\n")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "12:00:03\n")
        try writer.write(instance: "clock", format: .plain, contents: "12:00:04\n")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "12:00:04\n")
        #expect(fileStatus(spare) != nil)

        // The file deleted, before the daemon's repair forgets it: the spare is renamed in its place.
        unlink(target)
        try writer.write(instance: "clock", format: .plain, contents: "12:00:05\n")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "12:00:05\n")
        for second in 6..<9 {
            try writer.write(instance: "clock", format: .plain, contents: "12:00:0\(second)\n")
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "12:00:0\(second)\n")
        }
        #expect(writer.heldFileCount == 1)
        // Nothing stays open on an inode that lost its name.
        #expect(try Self.openNames(in: directory) == [".clock.plain.\(getpid())", "clock.plain"])
    }

    @Test func aReaderHoldingTheSpareKeepsItsVersion() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try OutputWriter(directory: directory.path)
        let target = directory.appending("clock.plain")
        for second in 0..<3 { try writer.write(instance: "clock", format: .plain, contents: "12:00:0\(second)\n") }
        #expect(writer.heldFileCount == 1)
        // The file a reader opens becomes the held spare at the next write; it must not be rewritten under the reader.
        let reader = open(target, O_RDONLY)
        try #require(reader >= 0)
        defer { close(reader) }
        for second in 3..<6 {
            try writer.write(instance: "clock", format: .plain, contents: "12:00:0\(second)\n")
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "12:00:0\(second)\n")
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = pread(reader, &buffer, buffer.count, 0)
            #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "12:00:02\n")
        }
    }

    @Test func forgettingRemovingAndRecreatingCloseTheDescriptors() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try OutputWriter(directory: directory.path)
        func writeThrice(_ instance: String) throws {
            for text in ["a\n", "b\n", "c\n"] { try writer.write(instance: instance, format: .plain, contents: text) }
        }
        for instance in ["one", "two", "three"] { try writeThrice(instance) }
        #expect(writer.heldFileCount == 3)
        #expect(try Self.openNames(in: directory).count == 6)

        writer.forget(fileNamed: "one.plain")
        #expect(writer.heldFileCount == 2)
        try writer.remove(instance: "two")
        #expect(writer.heldFileCount == 1)
        #expect(try Self.openNames(in: directory) == [".three.plain.\(getpid())", "three.plain"])
        // Written again after being forgotten: a first write (a new file), then held again.
        try writeThrice("one")
        #expect(writer.heldFileCount == 2)

        try writer.recreate()
        #expect(writer.heldFileCount == 0)
        #expect(try Self.openNames(in: directory).isEmpty)
        try writeThrice("three")
        writer.removeSpares()
        #expect(writer.heldFileCount == 0)
        #expect(try Self.openNames(in: directory).isEmpty)
    }

    @Test func atMostCapacityFilesAreHeldAndIdleOnesMakeRoom() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try OutputWriter(directory: directory.path)
        for index in 0..<80 {
            for text in ["a\n", "b\n", "c\n"] {
                try writer.write(instance: "w\(index)", format: .plain, contents: text)
            }
        }
        let capacity = HeldSpares().capacity
        #expect(capacity > 0 && capacity <= 64)
        #expect(writer.heldFileCount == capacity)
        #expect(try Self.openNames(in: directory).count == 2 * capacity)

        // With no idle time, a full table gives every pair up for the next file (at most once per check interval).
        var spares = HeldSpares(capacity: 2, idleAfter: 0)
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var slots: [Int32?] = []
        for index in 0..<3 {
            let name = "w\(index).plain"
            slots.append(
                try AtomicFile.withSpareNames(for: name) { names throws(OutputError) in
                    spares.hold(names, in: descriptor, now: HeldSpares.now())
                }
            )
        }
        #expect(slots[0] != nil && slots[1] != nil && slots[2] != nil)
        #expect(spares.count == 1)
        #expect(spares.pair(in: slots[2]!, for: "w2.plain") != nil)
        #expect(spares.pair(in: slots[0]!, for: "w0.plain") == nil)
        spares.releaseAll()
    }
}
