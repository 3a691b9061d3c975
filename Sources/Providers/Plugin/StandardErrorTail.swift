import Basics
import Glibc

/// The end of what a plugin wrote on its standard error: its last `maximumLines` lines within `maximumBytes`.
///
/// Kept so that a plugin that fails to say hello or crashes is shown with its own last words (a Python traceback ends
/// with the line that names the missing module), in `widgetd plugins`, `check` and the daemon's log, while a plugin
/// that writes on and on costs a few KiB, not its whole output.
struct StandardErrorTail: Sendable {
    static let maximumLines = 20
    static let maximumBytes = 4096
    /// Reads of the pipe in any second, at most: past that, a plugin that writes on and on waits on its full pipe.
    static let readsPerSecond = 50

    private var bytes: [UInt8] = []
    /// Bytes before `bytes` were dropped, so its first line may be the end of a longer one.
    private var cut = false

    mutating func append(_ chunk: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: chunk)
        if bytes.count > Self.maximumBytes {
            bytes.removeFirst(bytes.count - Self.maximumBytes)
            cut = true
        }
    }

    /// Reads one chunk of what `descriptor` (non-blocking) holds now; returns how many bytes, 0 at its end, -1 when
    /// nothing is there yet. One chunk per call: a plugin writing flat out is read at its host's budget, not in a loop.
    mutating func read(from descriptor: Int32) -> Int {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let count = retryingInterrupted { Glibc.read(descriptor, &buffer, buffer.count) }
        if count > 0 { buffer.withUnsafeBufferPointer { append(UnsafeBufferPointer(rebasing: $0[0..<count])) } }
        return count
    }

    /// Reads what is left in `descriptor` once the plugin has exited: a pipe's worth at most (a child it started in a
    /// session of its own might hold the pipe and write on).
    mutating func drain(from descriptor: Int32) {
        guard descriptor >= 0 else { return }
        for _ in 0..<8 where read(from: descriptor) > 0 {}
    }

    /// The last lines that hold more than white space, control characters shown as `?` (they are an outsider's text,
    /// on their way to a terminal and a log).
    var lines: [String] {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if cut, lines.count > 1 { lines.removeFirst() }
        let shown = lines.map { line in
            String(
                String.UnicodeScalarView(
                    String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
                        .unicodeScalars.map {
                            $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F ? "?" : $0
                        }))
        }
        .filter { !$0.allSatisfy { $0 == " " || $0 == "\t" } }
        return Array(shown.suffix(Self.maximumLines))
    }
}

extension StandardErrorTail {
    /// `reason`, with the last line of standard error when there is one: `exited with status 1 before its hello
    /// (standard error: ModuleNotFoundError: No module named 'requests')`. The line is cut at 200 characters: a message
    /// is one line of a log or a table.
    static func described(_ reason: String, lines: [String]) -> String {
        guard let last = lines.last else { return reason }
        return "\(reason) (standard error: \(last.count > 200 ? last.prefix(200) + "…" : last))"
    }
}
