import Basics
import Foundation
import TestSupport
import Testing

/// `PrivateDirectory.make`: every directory it makes is 0700, parents included, whatever the umask.
@Suite("private directories")
struct PrivateDirectoryTests {
    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    @Test func everyDirectoryItMakesIsClosedToOthers() throws {
        let root = scratchRoot + "/private-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try PrivateDirectory.make(root + "/run/widgetd/out")
        for path in [root, root + "/run", root + "/run/widgetd", root + "/run/widgetd/out"] {
            #expect(Self.mode(path) == 0o700, "\(path)")
        }
        // Again: what is there stays as it is, and nothing fails.
        #expect(chmod(root + "/run", 0o750) == 0)
        try PrivateDirectory.make(root + "/run/widgetd/out/")
        #expect(Self.mode(root + "/run") == 0o750)
    }

    @Test func aFileInTheWayIsNamed() throws {
        let root = scratchRoot + "/private-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try PrivateDirectory.make(root)
        #expect(FileManager.default.createFile(atPath: root + "/file", contents: Data()))
        #expect(throws: PrivateDirectory.Failure.self) { try PrivateDirectory.make(root + "/file/sub") }
        do {
            try PrivateDirectory.make(root + "/file/sub")
        } catch {
            #expect(error.path == root + "/file/sub" && error.errno == ENOTDIR, "\(error)")
        }
    }
}
