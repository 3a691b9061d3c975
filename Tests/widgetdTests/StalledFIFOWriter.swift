import Foundation
import Testing

/// A writer that holds a FIFO open and writes half a config, never finishing it: a command that read the FIFO would
/// wait for an end of file that does not come. It opens the FIFO read-write, so its open waits for no reader, and is in
/// place once the initializer returns. `stop()` kills and reaps it.
final class StalledFIFOWriter {
    private let process = Process()

    init(fifo: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let opened = fifo + ".opened"
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "exec 3<>\"$1\"; printf 'widgets:\\n' >&3; touch \"$2\"; exec sleep 30", "sh", fifo, opened,
        ]
        try process.run()
        #expect(
            await waitFor("the writer in place", sourceLocation: sourceLocation) {
                FileManager.default.fileExists(atPath: opened)
            })
    }

    func stop() {
        process.killAndWait()
    }
}
