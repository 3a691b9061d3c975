import Foundation
import TestSupport
import Testing

@testable import Output

/// Held files (`HeldSpares`) rewritten inside a batch (`OutputWriter.inOneBatch`): each ends with its last version,
/// and stays the writer's file when someone puts another at its name.
@Suite("held files written in a batch")
struct HeldFileBatchTests {
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

        func contents(_ index: Int) throws -> String { try fileText(path(index)) }

        func write(_ index: Int, _ text: String) throws {
            try writer.write(instance: "w\(index)", format: .plain, contents: text)
        }
    }

    @Test func aFileWrittenTwiceInABatchEndsWithItsLastVersion() throws {
        let files = try HeldFiles(count: 1)
        defer { files.directory.remove() }
        try files.writer.inOneBatch {
            try files.write(0, "first\n")
            try files.write(0, "second, longer\n")
        }
        #expect(try files.contents(0) == "second, longer\n")
        try files.write(0, "third\n")
        #expect(try files.contents(0) == "third\n")
        #expect(files.writer.heldFileCount == 1)
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
    }
}
