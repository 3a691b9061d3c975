import Foundation
import Synchronization
import System
import TestSupport
import Testing

@testable import Output

/// `OutputWriter.writeAll`: many files written at once, the new ones on two threads, with the same results as
/// writing each one by one.
@Suite("writing many files at once")
struct WriteAllTests {
    static func files(_ count: Int, text: (Int) -> String) -> [OutputWriter.FileWrite] {
        (0..<count).map { .init(instance: "w\($0)", format: .plain, bytes: Array(text($0).utf8)) }
    }

    @Test func everyNewFileIsWrittenWholeOnTwoThreadsAndRemembered() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try OutputWriter(directory: directory.path)
        // The stood-in open records which threads made files.
        let threads = Mutex<Set<UInt>>([])
        writer.openUnnamed = { directory, permissions in
            threads.withLock { _ = $0.insert(UInt(pthread_self())) }
            return UnnamedFileCalls.open(in: directory, permissions: permissions)
        }
        let count = 1000
        let errors = writer.writeAll(Self.files(count) { "entry \($0)\n" })
        #expect(errors.allSatisfy { $0 == nil })
        for index in [0, 1, 499, 500, 998, 999] {
            let path = directory.appending("w\(index).plain")
            #expect(try fileText(path) == "entry \(index)\n")
            #expect(try #require(fileStatus(path)).st_mode & 0o7777 == 0o600)
        }
        #expect(try directory.names().count == count)
        let expected = sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 ? 2 : 1
        #expect(threads.withLock { $0.count } == expected)

        // Remembered as written: the same bytes again change nothing, new ones replace them.
        let inode = try #require(fileStatus(directory.appending("w7.plain"))).st_ino
        #expect(writer.writeAll(Self.files(count) { "entry \($0)\n" }).allSatisfy { $0 == nil })
        #expect(try #require(fileStatus(directory.appending("w7.plain"))).st_ino == inode)
        #expect(try !writer.write(instance: "w7", format: .plain, contents: "entry 7\n"))
        #expect(try writer.write(instance: "w7", format: .plain, contents: "changed\n"))
        #expect(try fileText(directory.appending("w7.plain")) == "changed\n")
    }

    @Test func namesTakenOrGivenTwiceEndWithTheLastContents() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        // Found when the writer opens the directory (a last run's files), and made after it did (someone else's).
        #expect(FileManager.default.createFile(atPath: directory.appending("w3.plain"), contents: Data("old\n".utf8)))
        let writer = try OutputWriter(directory: directory.path)
        #expect(FileManager.default.createFile(atPath: directory.appending("w5.plain"), contents: Data("old\n".utf8)))
        var files = Self.files(300) { "entry \($0)\n" }
        files.append(.init(instance: "w9", format: .plain, bytes: Array("again\n".utf8)))
        files.append(.init(instance: "bad/name", format: .plain, bytes: Array("x\n".utf8)))
        let errors = writer.writeAll(files)
        #expect(errors.dropLast().allSatisfy { $0 == nil })
        #expect(errors.last! != nil, "a name that is not a file name is refused, alone")
        for (name, text) in [("w3", "entry 3\n"), ("w5", "entry 5\n"), ("w9", "again\n"), ("w299", "entry 299\n")] {
            #expect(
                try fileText(directory.appending("\(name).plain")) == text, "\(name)")
        }
        // No temporary file left; the spare of the file written twice stays, as every spare does while the writer
        // runs.
        #expect(try directory.names().filter { $0.hasPrefix(".") } == [".w9.plain.\(getpid())"])
    }

    @Test func whereUnnamedFilesFailEveryFileIsRenamedIn() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try OutputWriter(directory: directory.path)
        writer.openUnnamed = { _, _ in
            errno = EOPNOTSUPP
            return -1
        }
        let errors = writer.writeAll(Self.files(400) { "entry \($0)\n" })
        #expect(errors.allSatisfy { $0 == nil })
        #expect(try directory.names().count == 400)
        #expect(try fileText(directory.appending("w123.plain")) == "entry 123\n")
    }

    @Test func aRefusedDirectoryFailsEveryFile() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let directory = root.appending("out")
        let writer = try OutputWriter(directory: directory)
        #expect(rename(directory, directory + ".old") == 0)
        let errors = writer.writeAll(Self.files(200) { "entry \($0)\n" })
        #expect(errors.allSatisfy { $0 != nil })
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + ".old").isEmpty)
    }
}
