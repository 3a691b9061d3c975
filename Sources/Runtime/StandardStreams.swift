import Basics
import Glibc
import System

/// Writes to standard output and standard error with plain `write(2)`, never trapping.
///
/// Foundation's `FileHandle.write` traps (the process dies of SIGILL) when a write fails: a full disk
/// (`2>/dev/full`), or a reader that went away once SIGPIPE is ignored. Here a failure is returned and the caller
/// decides: the daemon's log counts the lost line and carries on; a one-shot command exits quietly with status 1.
public enum StandardStreams {
    /// Writes all of `bytes` to `descriptor` (`write` in a loop: `EINTR` retried, a short write continued).
    ///
    /// A descriptor someone made non-blocking (`EAGAIN`) is waited for with `poll` up to `patience` milliseconds per
    /// stall (-1: as long as it takes, as a blocking descriptor would).
    /// - Returns: nil when everything was written, else the `errno` of the write that failed.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32, patience: Int32 = -1) -> Int32? {
        var written = 0
        while written < bytes.count {
            let result = retryingInterrupted {
                bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            }
            if result >= 0 {
                written += result
                continue
            }
            let code = errno
            switch code {
            case EAGAIN:
                var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                if retryingInterrupted({ poll(&entry, 1, patience) }) > 0 { continue }
                return EAGAIN
            default:
                return code
            }
        }
        return nil
    }

    /// Ignores SIGPIPE and SIGXFSZ in the whole process, so that a reader going away makes a write fail with `EPIPE`,
    /// and a write past a file-size limit (`ulimit -f`, a unit's `LimitFSIZE=`) with `EFBIG`, instead of killing the
    /// process: a failed write is handled where it happens (a bar file tried again, a log line lost).
    ///
    /// Safe for children: every process widgetd starts gets both back to their defaults (`ChildAttributes`).
    public static func ignoreSignalsThatEndWrites() {
        _ = signal(SIGPIPE, SIG_IGN)
        _ = signal(SIGXFSZ, SIG_IGN)
    }
}
