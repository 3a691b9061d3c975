import Glibc

/// Writes `text` to standard error with `write(2)`: a closed or full stderr loses the message, never the run
/// (Foundation's `FileHandle.write` traps on `EPIPE` and `ENOSPC`).
func complain(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}
