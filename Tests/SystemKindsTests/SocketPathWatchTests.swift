import Foundation
import TestSupport
import Testing

@testable import SystemKinds

/// The watch the music and sound listeners wait for a missing server's socket with: it hears the socket appear, in a
/// directory that exists or not yet, and nothing else; and which paths it can watch.
@Suite("waiting for a server's socket")
struct SocketPathWatchTests {
    @Test func onlyAbsolutePathsWithoutDotComponentsAreWatchedAndTheyAreNormalized() {
        #expect(SocketPathWatch.normalized("/run/user/1000/bus") == "/run/user/1000/bus")
        #expect(SocketPathWatch.normalized("//tmp//x/bus/") == "/tmp/x/bus")
        for unwatchable in ["", "/", "//", "bus", "run/bus", "/a/../bus", "/a/./bus", "/a/.."] {
            #expect(SocketPathWatch.normalized(unwatchable) == nil, "\(unwatchable)")
        }
    }

    @Test func timedAttemptsAreOnlyForARefusingSocketOrWhereNothingIsWatched() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let socketPath = directory.appending("server")
        // Nothing watched: every attempt on the timer, 1 s, then twice as long each time up to a minute.
        #expect((0..<9).map { RetrySchedule.delay(after: $0, watch: nil) } == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        #expect(RetrySchedule.delay(after: 0, watch: nil, canAppear: false) == nil)
        // Watched and not there: the watch hears it come, so no timer.
        let watch = try #require(SocketPathWatch(paths: [socketPath]))
        #expect(RetrySchedule.delay(after: 0, watch: watch) == nil)
        // There and refusing: a minute of timed attempts, then the watch alone.
        let socket = try Self.bind(socketPath)
        defer { close(socket) }
        #expect(
            (0..<8).map { RetrySchedule.delay(after: $0, watch: watch) } == [1, 2, 4, 8, 16, 32, nil, nil])
    }

    /// Waits up to `timeout` for the watch's descriptor to be readable, then reads it.
    static func relevant(_ watch: SocketPathWatch, timeout: Int32 = 5000) -> Bool? {
        var descriptor = pollfd(fd: watch.fileDescriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, timeout) == 1 else { return nil }
        return watch.readEvents()
    }

    /// Whether the watch's descriptor is readable now.
    static func pending(_ watch: SocketPathWatch) -> Bool {
        var descriptor = pollfd(fd: watch.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }

    @Test func aSocketMadeInTheWatchedDirectoryIsHeardAndOtherNamesAreNot() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let socketPath = directory.appending("bus")
        let watch = try #require(SocketPathWatch(paths: [socketPath]))
        #expect(!watch.socketExists)
        #expect(!Self.pending(watch))
        FileManager.default.createFile(atPath: directory.appending("other"), contents: nil)
        #expect(Self.relevant(watch) == false)
        let socket = try Self.bind(socketPath)
        defer { close(socket) }
        #expect(Self.relevant(watch) == true)
        #expect(watch.socketExists)
        #expect(watch.isWatching)
    }

    @Test func aDirectoryNotThereYetIsWaitedForInItsNearestParent() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let socketPath = directory.appending("runtime/user/bus")
        let watch = try #require(SocketPathWatch(paths: [socketPath]))
        try FileManager.default.createDirectory(
            atPath: directory.appending("runtime"), withIntermediateDirectories: false)
        // Each directory on the way is heard, and the watch moves down to it.
        #expect(Self.relevant(watch) == true)
        #expect(!watch.socketExists)
        try FileManager.default.createDirectory(
            atPath: directory.appending("runtime/user"), withIntermediateDirectories: false)
        #expect(Self.relevant(watch) == true)
        // The parent's other entries no longer wake it.
        FileManager.default.createFile(atPath: directory.appending("elsewhere"), contents: nil)
        FileManager.default.createFile(atPath: directory.appending("runtime/elsewhere"), contents: nil)
        // Closed once, here: a second close at the test's end would close whatever descriptor another test's thread
        // was given that number since (Foundation's watch on a child it started, so that child is never reaped).
        let socket = try Self.bind(socketPath)
        #expect(Self.relevant(watch) == true)
        #expect(watch.socketExists)
        // The socket's directory deleted: heard, and waited for again in its parent.
        close(socket)
        try FileManager.default.removeItem(atPath: directory.appending("runtime/user"))
        #expect(Self.relevant(watch) == true)
        #expect(watch.isWatching && !watch.socketExists)
        try FileManager.default.createDirectory(
            atPath: directory.appending("runtime/user"), withIntermediateDirectories: false)
        #expect(Self.relevant(watch) == true)
    }

    /// A listening Unix socket at `path`, as a server makes.
    static func bind(_ path: String) throws -> Int32 {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard socket >= 0, bound == 0, listen(socket, 1) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return socket
    }
}
