import Foundation
import TestSupport
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
            #expect(try fileText(target) == text)
            inodes.append(try #require(fileStatus(target)).st_ino)
        }
        #expect(inodes[0] == inodes[2] && inodes[1] == inodes[3] && inodes[0] != inodes[1], "\(inodes)")
        #expect(try #require(fileStatus(target)).st_mode & 0o7777 == 0o600)
        #expect(try Self.openNames(in: directory) == [spare, "clock.plain"])
        #expect(writer.heldFileCount == 1)
    }

    @Test func aHeldSpareIsRewrittenWholeWhateverLengthItHeld() throws {
        let clock = try HeldClockFile()
        defer { clock.directory.remove() }
        #expect(clock.writer.heldFileCount == 1)
        // Three lengths in turn, so the spare (two versions back) never holds as many bytes as the new text: every
        // rewrite must drop the old tail. A long text and then two short ones: the second short one goes to the
        // spare that holds the long one, not the file written just before. Then one length only, so every rewrite
        // goes over bytes of its own length.
        let lengths: [String] = ["a\n", "bbbbbbbbbbbb\n", "ccccc\n"]
        var texts: [String] = (0..<9).map { (index: Int) -> String in lengths[index % 3] + String(index) }
        texts += ["a long line, then two short ones\n", "s\n", "t\n"]
        texts += (0..<6).map { (index: Int) -> String in "12:00:1\(index)\n" }
        texts.append("x")
        for text in texts {
            try clock.writer.write(instance: "clock", format: .plain, contents: text)
            #expect(try fileText(clock.target) == text)
        }
        #expect(clock.writer.heldFileCount == 1)
    }

    /// The one reader a same-length rewrite in place shows a difference to: one that spliced the file into a pipe (here
    /// `sendfile`, which tmpfs serves by lending its page), closed it, and reads the pipe after the inode came back as
    /// the spare and was rewritten. It reads a later version of the same length, whole; after a rewrite of another
    /// length it still reads its own version (`AtomicFile+Spare`).
    @Test func aPipeHoldingASplicedPageSeesOnlyWholeVersions() throws {
        let clock = try HeldClockFile()
        defer { clock.directory.remove() }
        let (writer, target) = (clock.writer, clock.target)
        #expect(writer.heldFileCount == 1)
        /// The file as it is now, spliced into a new pipe whose reading end is returned; the file is closed again.
        func splicedIntoPipe() throws -> Int32 {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            let file = open(target, O_RDONLY | O_CLOEXEC)
            try #require(file >= 0)
            var offset: off_t = 0
            let sent = sendfile(ends[1], file, &offset, 64)
            close(file)
            close(ends[1])
            try #require(sent > 0)
            return ends[0]
        }
        func drained(_ pipe: Int32) -> String {
            defer { close(pipe) }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(pipe, &buffer, buffer.count)
            return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
        }
        #expect(try fileText(target) == "12:00:02\n")

        // Another length: the rewrite truncates first, so the pipe keeps the page it was lent.
        let kept = try splicedIntoPipe()
        try writer.write(instance: "clock", format: .plain, contents: "12:00:03\n")
        try writer.write(instance: "clock", format: .plain, contents: "12:00:04 late\n")
        #expect(drained(kept) == "12:00:02\n")

        // The same length: the rewrite goes over the lent page, and the pipe has the later version whole.
        let lent = try splicedIntoPipe()
        #expect(try fileText(target) == "12:00:04 late\n")
        try writer.write(instance: "clock", format: .plain, contents: "12:00:05\n")
        try writer.write(instance: "clock", format: .plain, contents: "12:00:06 next\n")
        #expect(drained(lent) == "12:00:06 next\n")
        #expect(try fileText(target) == "12:00:06 next\n")
    }

    @Test func aDeletedFileOrSpareIsWrittenByNameAndHeldAgain() throws {
        let clock = try HeldClockFile()
        defer { clock.directory.remove() }
        let (directory, writer, target, spare) = (clock.directory, clock.writer, clock.target, clock.spare)
        #expect(writer.heldFileCount == 1)

        // The spare deleted: the held inode has no name any more, so the write goes by name and makes a new spare.
        unlink(spare)
        try writer.write(instance: "clock", format: .plain, contents: "12:00:03\n")
        #expect(try fileText(target) == "12:00:03\n")
        try writer.write(instance: "clock", format: .plain, contents: "12:00:04\n")
        #expect(try fileText(target) == "12:00:04\n")
        #expect(fileStatus(spare) != nil)

        // The file deleted, before the daemon's repair forgets it: the spare is renamed in its place.
        unlink(target)
        try writer.write(instance: "clock", format: .plain, contents: "12:00:05\n")
        #expect(try fileText(target) == "12:00:05\n")
        for second in 6..<9 {
            try writer.write(instance: "clock", format: .plain, contents: "12:00:0\(second)\n")
            #expect(try fileText(target) == "12:00:0\(second)\n")
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
        let reader = open(target, O_RDONLY | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }
        for second in 3..<6 {
            try writer.write(instance: "clock", format: .plain, contents: "12:00:0\(second)\n")
            #expect(try fileText(target) == "12:00:0\(second)\n")
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
        let standard = HeldSpares().capacity
        #expect(standard > 0 && standard <= 1024)
        // A small table, so that this process (which runs other tests beside) holds few descriptors for it.
        let capacity = 16
        let writer = try OutputWriter(directory: directory.path)
        writer.heldSpares = HeldSpares(capacity: capacity)
        for index in 0..<(capacity + 8) {
            for text in ["a\n", "b\n", "c\n"] {
                try writer.write(instance: "w\(index)", format: .plain, contents: text)
            }
        }
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
