import Control
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("control paths")
struct ControlPathsTests {
    @Test func runtimeDirectoryFollowsXDG() {
        #expect(ControlPaths(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]).directory == "/run/user/1000/widgetd")
        #expect(
            ControlPaths(environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"]).fifo == "/run/user/1000/widgetd/control")
        #expect(ControlPaths(environment: [:]).directory == "/tmp/widgetd-\(getuid())")
        #expect(ControlPaths(environment: ["XDG_RUNTIME_DIR": ""]).directory == "/tmp/widgetd-\(getuid())")
        #expect(ControlPaths(environment: ["XDG_RUNTIME_DIR": "relative"]).directory == "/tmp/widgetd-\(getuid())")
        let paths = ControlPaths(directory: "/r")
        #expect([paths.fifo, paths.lock, paths.acknowledgements] == ["/r/control", "/r/lock", "/r/acks"])
        #expect(paths.acknowledgement(ControlCommand.AckToken("t-1")!) == "/r/acks/t-1")
    }

    @Test func prepareCreatesPrivateDirectories() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let paths = ControlPaths(directory: directory.appending("widgetd"))
        try paths.prepare()
        try paths.prepare()  // again: they exist and pass
        for path in [paths.directory, paths.acknowledgements] {
            var info = stat()
            #expect(lstat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o700)
        }
        try paths.check()
    }

    @Test func aSymlinkedDirectoryIsRefused() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        #expect(mkdir(directory.appending("real"), 0o700) == 0)
        #expect(symlink(directory.appending("real"), directory.appending("widgetd")) == 0)
        let paths = ControlPaths(directory: directory.appending("widgetd"))
        let error = try #require(throws: ControlPathError.self) { try paths.prepare() }
        #expect(error == .symbolicLink(path: paths.directory))
        #expect(
            error.description
                == "\(paths.directory) is a symbolic link; refusing to follow it (remove it and try again)")
    }

    @Test(arguments: [0o755, 0o750, 0o701, 0o777] as [UInt32])
    func aDirectoryOpenToOthersIsRefused(mode: UInt32) throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("widgetd")
        #expect(mkdir(path, 0o700) == 0 && chmod(path, mode) == 0)
        let error = try #require(throws: ControlPathError.self) { try ControlPaths(directory: path).prepare() }
        #expect(error == .unsafePermissions(path: path, mode: mode, expected: 0o700))
        let shown = "0" + String(mode, radix: 8)
        #expect(
            error.description == "\(path) has mode \(shown); other users must have no access (run: chmod 0700 \(path))")
    }

    @Test(.enabled(if: getuid() == 0, "giving a directory to another user needs root"))
    func anotherUsersDirectoryIsRefused() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("widgetd")
        #expect(mkdir(path, 0o700) == 0 && chown(path, 65534, 65534) == 0)
        let error = try #require(throws: ControlPathError.self) { try ControlPaths(directory: path).check() }
        #expect(error == .notOwned(path: path, owner: 65534))
        #expect(error.description == "\(path) is owned by uid 65534, not by you (uid 0); refusing to use it")
    }

    @Test func aRegularFileWhereTheDirectoryBelongsIsRefused() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("widgetd")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(throws: ControlPathError.notADirectory(path: path)) { try ControlPaths(directory: path).prepare() }
    }

    @Test func aRegularFileAtTheFIFOPathIsRefused() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("control")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("reload all\n".utf8)))
        let error = try #require(throws: ControlPathError.self) { try ControlFIFO(path: path) }
        #expect(error == .notAFIFO(path: path))
        #expect(error.description == "\(path) exists but is not a FIFO (remove it and try again)")
    }

    @Test func aSymlinkAtTheFIFOPathIsRefused() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        #expect(mkfifo(directory.appending("elsewhere"), 0o600) == 0)
        #expect(symlink(directory.appending("elsewhere"), directory.appending("control")) == 0)
        #expect(throws: ControlPathError.symbolicLink(path: directory.appending("control"))) {
            try ControlFIFO(path: directory.appending("control"))
        }
    }

    @Test func aFIFOOpenToOthersIsRefused() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("control")
        #expect(mkfifo(path, 0o600) == 0 && chmod(path, 0o622) == 0)
        #expect(throws: ControlPathError.unsafePermissions(path: path, mode: 0o622, expected: 0o600)) {
            try ControlFIFO(path: path)
        }
    }
}
