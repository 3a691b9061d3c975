import Foundation
import TestSupport
import Testing

@testable import SystemKinds

/// How the music listener waits for a session bus that is not there: which addresses name sockets it can wait for by
/// inotify, and that the watch hears a socket appear, in a directory that exists or not yet, and nothing else.
@Suite("music: waiting for the session bus")
struct MusicBusWaitTests {
    @Test func theExpectedAddressIsTheEnvironmentsOrTheRuntimeDirectorysBusWhetherOrNotItExists() {
        let both = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/bus", "XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(SessionBusAddress.expected(environment: { both[$0] }) == "unix:path=/run/bus")
        let runtimeOnly = ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(SessionBusAddress.expected(environment: { runtimeOnly[$0] }) == "unix:path=/run/user/1000/bus")
        #expect(SessionBusAddress.expected(environment: { _ in nil }) == nil)
        #expect(SessionBusAddress.expected(environment: { ["XDG_RUNTIME_DIR": ""][$0] }) == nil)
    }

    @Test func onlyUnixPathAddressesNameSocketsToWaitFor() {
        #expect(SessionBusAddress.socketPaths(of: "unix:path=/run/user/1000/bus") == ["/run/user/1000/bus"])
        #expect(SessionBusAddress.socketPaths(of: "unix:path=/tmp/a%20b%2cc") == ["/tmp/a b,c"])
        #expect(SessionBusAddress.socketPaths(of: "unix:path=/tmp//x/bus/") == ["/tmp/x/bus"])
        #expect(SessionBusAddress.socketPaths(of: "unix:path=/a/bus;unix:path=/b/bus") == ["/a/bus", "/b/bus"])
        for unwatchable in [
            "unix:abstract=/tmp/dbus-XYZ", "unix:abstract=/tmp/dbus-XYZ,guid=0123", "unix:tmpdir=/tmp",
            "unix:dir=/tmp", "unix:runtime=yes", "tcp:host=localhost,port=1234", "launchd:env=X",
            "unix:path=/a/bus;tcp:host=localhost,port=1", "unix:path=bus", "unix:path=/a/../bus",
            "unix:path=/a/%2", "unix:path=/a/%zz", "unix:path=/a/%00", "unix:path=", "unix:path=/", "", ";",
            "unix:path=/a/bus,guid=0123",
        ] {
            #expect(SessionBusAddress.socketPaths(of: unwatchable) == nil, "\(unwatchable)")
        }
    }

    /// Waits up to `timeout` for the watch's descriptor to be readable, then reads it.
    static func relevant(_ watch: BusSocketWatch, timeout: Int32 = 5000) -> Bool? {
        var descriptor = pollfd(fd: watch.fileDescriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, timeout) == 1 else { return nil }
        return watch.readEvents()
    }

    /// Whether the watch's descriptor is readable now.
    static func pending(_ watch: BusSocketWatch) -> Bool {
        var descriptor = pollfd(fd: watch.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }

    @Test func aSocketMadeInTheWatchedDirectoryIsHeardAndOtherNamesAreNot() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let socketPath = directory.appending("bus")
        let watch = try #require(BusSocketWatch(paths: [socketPath]))
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
        let watch = try #require(BusSocketWatch(paths: [socketPath]))
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
        let socket = try Self.bind(socketPath)
        defer { close(socket) }
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

    /// A listening Unix socket at `path`, as a bus makes.
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
