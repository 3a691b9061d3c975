import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon

/// What the daemon tells systemd through `NOTIFY_SOCKET` (Type=notify), on the daemon in the test's process
/// (`DrivenDaemon`): the socket is the test's, the SIGHUP is handed to `Daemon.handleSignals` as the loop hands it
/// what its signalfd read. The watchdog's keep-alives, on the monotonic clock as systemd counts them, and the journal's
/// prefixes on the daemon's own standard error stay in widgetdTests' `SystemdServiceTests`.
@Suite("systemd notifications, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenNotifyTests {
    @Test(
        "READY=1 after the first paint, RELOADING=1/READY=1 around a SIGHUP reload, STOPPING=1 at the stop",
        arguments: [false, true])
    func notifications(abstract: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = try FakeNotifySocket(abstract: abstract, in: directory)
        let driven = try DrivenDaemon(
            config: "widgets:\n  quote:\n    kind: quotes\n    output: [plain]\n",
            adding: ["NOTIFY_SOCKET": socket.address])
        /// What came and was not looked at yet.
        var received: [String] = []
        /// Takes turns until a message has `field`; the messages up to it, that one the last.
        func notified(_ field: String) -> [String] {
            let has = { (message: String) in message.split(separator: "\n").contains(Substring(field)) }
            driven.turns(until: field) {
                while let message = socket.receive(timeout: .zero) { received.append(message) }
                return received.contains(where: has)
            }
            guard let index = received.firstIndex(where: has) else { return [] }
            defer { received.removeFirst(index + 1) }
            return Array(received[...index])
        }
        let ready = notified("READY=1")
        // The first paint is written before the service says it is ready.
        #expect(driven.read("quote.plain") != nil)
        #expect(ready.last?.split(separator: "\n").contains("STATUS=1 widget") == true, "\(ready)")
        #expect(ready.last?.contains("MAINPID=\(getpid())") == true)

        driven.daemon.handleSignals([SIGHUP])
        let reloading = notified("RELOADING=1")
        let reloadFields = reloading.last?.split(separator: "\n") ?? []
        let monotonic = reloadFields.first { $0.hasPrefix("MONOTONIC_USEC=") }.flatMap { UInt64($0.dropFirst(15)) }
        #expect(monotonic.map { $0 > 0 } == true, "RELOADING=1 comes with MONOTONIC_USEC: \(reloading)")
        #expect(notified("READY=1").count >= 1)

        // Sent by the stop itself, which takes no turn after it.
        driven.stop()
        var last: [String] = []
        while let message = socket.receive(timeout: .zero) { last.append(message) }
        #expect(last.contains { $0.split(separator: "\n").contains("STOPPING=1") }, "\(last)")
    }
}
