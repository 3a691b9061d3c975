import Control
import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon
@testable import Runtime

@Suite("daemon.json, the watchdog and NOTIFY_SOCKET, unit by unit")
struct PresenceUnitTests {
    @Test("daemon.json is removed at a stop only while it names this process")
    func removedOnlyIfOurs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let control = ControlPaths(directory: directory.url.path)
        let theirs = DaemonState(
            pid: 1, config: "/c", output: "/o", startedAt: "2026-11-30T18:00:00+00:00", configErrors: 0)
        try theirs.write(to: control)
        DaemonState.remove(from: control)
        #expect(DaemonState.read(from: control) == theirs)
        var ours = theirs
        ours.pid = getpid()
        try ours.write(to: control)
        DaemonState.remove(from: control)
        #expect(DaemonState.read(from: control) == nil)
    }

    @Test("A state file naming a live process that is not widgetd is not believed")
    func notAWidgetd() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let control = ControlPaths(directory: directory.url.path)
        // This test runner is alive, but it is not widgetd.
        try DaemonState(pid: getpid(), config: "/c", output: "/o", startedAt: "x", configErrors: 0).write(to: control)
        _ = try directory.write("lock", "\(getpid())\n")
        #expect(DaemonState.running(in: control) == nil)
    }

    @Test(arguments: [
        ([String: String](), false),
        (["WATCHDOG_USEC": "0"], false),
        (["WATCHDOG_USEC": "soon"], false),
        (["WATCHDOG_USEC": "30000000"], true),
        (["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "\(getpid())"], true),
        (["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"], false),
    ])
    func watchdogEnabled(_ environment: [String: String], _ enabled: Bool) {
        let watchdog = Watchdog(environment: environment)
        #expect((watchdog != nil) == enabled)
        if let watchdog {
            #expect(watchdog.interval == .seconds(15))
            #expect(!watchdog.isDue())
            let now = Date()
            let due = watchdog.due(now: now).timeIntervalSince(now)
            #expect(due > 14 && due <= 15)
        }
    }

    @Test(arguments: [
        ("", false), ("relative/path", false), ("/run/user/1000/systemd/notify", true), ("@abstract", true),
        ("/" + String(repeating: "x", count: 200), false),
    ])
    func notifySocketAddresses(_ address: String, _ accepted: Bool) {
        #expect((SystemdNotifier(environment: ["NOTIFY_SOCKET": address]) != nil) == accepted)
    }
}
