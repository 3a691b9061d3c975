import Control
import Foundation
import Glibc
import System
import Testing

/// Writes to a FIFO or file from a test: each `write` is one system call, as a real writer's would be.
final class RawWriter: Sendable {
    let descriptor: Int32

    /// Opens `path` for writing; blocking, so a full FIFO makes `write` wait for the reader.
    init(_ path: String, flags: Int32 = O_WRONLY) throws {
        let opened = open(path, flags | O_CLOEXEC)
        guard opened >= 0 else { throw SystemError(call: "open", subject: path, errno: errno) }
        descriptor = opened
    }

    deinit { close(descriptor) }

    /// Writes all of `bytes`, in one `write` when they fit.
    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError(call: "write", errno: errno)
            }
            offset += count
        }
    }

    func write(_ text: String) throws { try write(Array(text.utf8)) }
}

/// Reads `fifo` until `done` holds for everything read so far, waiting on `poll` with a deadline.
///
/// Returns what was read; the caller's expectations then say what is missing if the deadline passed.
func readControlLines(
    from fifo: ControlFIFO, timeout: Duration = .seconds(10), until done: ([ControlLineResult]) -> Bool
) throws -> [ControlLineResult] {
    var results: [ControlLineResult] = []
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while !done(results) {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { break }
        if try Poller.waitUntilReadable(fifo.fileDescriptor, timeout: left) {
            results += fifo.readLines()
        }
    }
    return results
}
