import Foundation
import TestSupport
import Testing

/// A config that is a FIFO, checked by the built binary. A suite of its own so that it starts with the run
/// (`.startsFirst` on a suite, not on a test: a test's trait takes effect only once the pool reaches that test): its
/// last check waits the 5 s the reader gives a writer, and would otherwise be the run's end.
@Suite("a config that is a FIFO, end to end", .startsFirst)
struct ConfigFIFOEndToEndTests {
    /// A FIFO for a config never hangs a command: with no writer it opens at once and is refused as such, not as an
    /// empty file; a writer that keeps it open and never finishes is given `FileReading.pipeWait`.
    @Test func aConfigThatIsAFIFONeverHangsTheCommand() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.url.path + "/widgets.yaml"
        #expect(mkfifo(fifo, 0o600) == 0)
        let empty = try runWidgetd(["check", "--config", fifo])
        #expect(empty.status == 1)
        #expect(
            empty.stderr.hasPrefix("\(fifo): error: is a FIFO, and nothing was written to it\n"), "\(empty.stderr)")
        // A writer that holds it open and writes half a file.
        let writer = try await StalledFIFOWriter(fifo: fifo)
        defer { writer.stop() }
        let stalled = try await awaitingPrograms { try runWidgetd(["check", "--config", fifo]) }
        #expect(stalled.status == 1)
        #expect(stalled.stderr.contains("gave no end of file within 5 s"), "\(stalled.stderr)")
    }
}
