import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon

/// A FIFO put where widgets.yaml was, on the daemon in the test's process (`DrivenDaemon`); the SIGHUP that asks it to
/// read the file again is handed to `Daemon.handleSignals` as the loop hands it what its signalfd read. Signals sent to
/// the daemon's process are widgetdTests' `DaemonSignalsTests`.
@Suite("a FIFO at the config's path, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenConfigFIFOTests {
    static func config(_ names: [String]) -> String {
        "widgets:\n" + names.map { "  \($0):\n    kind: quotes\n" }.joined()
    }

    /// A FIFO moved to where widgets.yaml was (`mkfifo new; mv new widgets.yaml`): the daemon read it blocking, and hung
    /// past SIGTERM; then it kept what it had read for that path and never read the file again. Now it refuses it as a
    /// FIFO nothing was written to, keeps running the config it has, answers, and takes the next regular file.
    @Test func aFIFOPutWhereTheConfigWasNeitherHangsNorBlindsTheDaemon() throws {
        let driven = try DrivenDaemon(config: Self.config(["a"]))
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("a") })
        let fifo = driven.directory.url.path + "/new.yaml"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(rename(fifo, driven.configPath) == 0)
        #expect(
            driven.turns(until: "the FIFO refused") {
                driven.log.contains("is a FIFO, and nothing was written to it")
                    && driven.log.contains("keeping the running configuration")
            },
            "\(driven.log)")
        let reload = driven.commandTakingTurns(["reload", "all", "--wait"])
        #expect(reload.status == 0, "\(reload.stderr)")
        // A writer that holds the FIFO open (read-write, so its open does not wait for a reader) and writes half a
        // file: refused at once, not waited for.
        let writer = open(driven.configPath, O_RDWR | O_CLOEXEC)
        #expect(writer >= 0)
        defer { close(writer) }
        #expect(write(writer, "widgets:\n", 9) == 9)
        // Opening a FIFO for writing raises no inotify event the daemon reads: SIGHUP asks it to read the file.
        driven.daemon.handleSignals([SIGHUP])
        #expect(
            driven.turns(until: "the half-written FIFO refused") {
                driven.log.contains("is a pipe or FIFO with nothing to read yet")
            }, "\(driven.log)")
        try driven.editConfig(Self.config(["a", "b"]))
        #expect(driven.turns(until: "b, from the regular file after it") { driven.hasTimeline("b") }, "\(driven.log)")
    }

}
