import Foundation
import Testing

@testable import SystemKinds

/// How the music listener waits for a session bus that is not there: which addresses name sockets it can wait for by
/// inotify (`SocketPathWatchTests` has the watch itself).
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
}
