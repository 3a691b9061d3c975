import Foundation
import Synchronization

/// Where each daemon turn went, for finding what bounds the suite's wall time: with `WIDGETD_TEST_TURN_LOG=<path>`,
/// every test that took a `DaemonGate` turn appends one line when it ends,
/// `<asked> <taken> <given back> <ended> <test name>`, in seconds since 1970 (as the instants of Swift Testing's event
/// stream, `--event-stream-output-path`). A test that kept its turn to its end has the same third and fourth figures.
final class TurnLog: Sendable {
    /// The log named by the environment, or nil (no log: the usual run).
    static let shared = ProcessInfo.processInfo.environment["WIDGETD_TEST_TURN_LOG"].map { TurnLog(path: $0) }

    private let file: Mutex<FileHandle?>

    private init(path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        file = Mutex(FileHandle(forWritingAtPath: path))
    }

    func record(_ name: String, asked: ContinuousClock.Instant, turn: DaemonGate.Turn) {
        let (ended, now) = (ContinuousClock.now, Date().timeIntervalSince1970)
        let figures = [asked, turn.taken, turn.givenBackAt ?? ended, ended].map { instant in
            let before = ended - instant
            let seconds = Double(before.components.seconds) + Double(before.components.attoseconds) / 1e18
            return String(format: "%.3f", now - seconds)
        }
        let line = (figures + [name]).joined(separator: " ") + "\n"
        file.withLock { $0?.write(Data(line.utf8)) }
    }
}
