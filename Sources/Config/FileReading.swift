import Basics
import FoundationEssentials
import Glibc
import Synchronization
import YAML

/// Why a file could not be read, worded for a person.
public struct FileReadError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { reason }
}

/// Whole-file reads that say plainly what went wrong.
public enum FileReading {
    /// The bytes of the file at `path`; with `limit`, a larger file is refused, naming its size (before it is read
    /// when it has one). Plain system calls, so a pipe (`--config <(envsubst < widgets.yaml)`) or a device reads as
    /// any file does, to its end.
    ///
    /// Never blocks for good: the file is opened non-blocking, so a named FIFO with no writer opens at once (and is
    /// refused, as nothing was written to it), and a pipe or FIFO whose writer gives no end of file within `pipeWait` is refused. A FIFO put where
    /// widgets.yaml was hung the daemon in `open`, past SIGTERM. An anonymous pipe can be read once, and one command
    /// reads its config more than once (the `plugins:` section first, then the whole), so what such a pipe held is
    /// kept for the later reads of the same pipe; a named FIFO is read afresh each time, as it may be written again.
    public static func contents(
        of path: String, atMost limit: Int? = nil, pipeWait: TimeInterval = pipeWait
    ) throws(FileReadError) -> [UInt8] {
        let descriptor = retryingInterrupted { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else { throw failure(path: path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(path: path, errno: errno) }
        if status.st_mode & S_IFMT == S_IFDIR {
            throw FileReadError(path: path, reason: "is a directory, not a file")
        }
        if let limit, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) > limit {
            throw tooLarge(path: path, size: Int(status.st_size), limit: limit)
        }
        let pipe = status.st_mode & S_IFMT == S_IFIFO && isAnonymousPipe(descriptor) ? status.st_ino : nil
        if let pipe, let kept = readPipes.withLock({ $0[path] }), kept.inode == pipe { return kept.bytes }
        let stalled = FileReadError(
            path: path,
            reason: pipeWait > 0
                ? "gave no end of file within \(Int(pipeWait)) s (a pipe or FIFO nobody closed?)"
                : "is a pipe or FIFO with nothing to read yet (the daemon waits for no pipe)")
        // The same pipe stalled a moment ago (a command reads its config up to three times): not waited for again.
        if let since = stalledPipes.withLock({ $0[path] }), since.inode == status.st_ino,
            Date().timeIntervalSince(since.at) < pipeWait * 2
        {
            throw stalled
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(pipeWait)
        while true {
            let count = buffer.withUnsafeMutableBytes { chunk in
                retryingInterrupted { read(descriptor, chunk.baseAddress, chunk.count) }
            }
            if count < 0, errno == EAGAIN {
                // A pipe (or a terminal) with nothing yet: wait for it, up to the deadline.
                let remaining = deadline.timeIntervalSinceNow
                var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard remaining > 0, poll(&waiting, 1, Int32((remaining * 1000).rounded(.up))) != 0 else {
                    stalledPipes.withLock { $0[path] = (status.st_ino, Date()) }
                    throw stalled
                }
                continue
            }
            guard count >= 0 else { throw failure(path: path, errno: errno) }
            if count == 0 {
                // A named FIFO opens without waiting for a writer, and one that gave nothing had no writer, or one
                // that wrote nothing: no config at all, rather than an empty one.
                if bytes.isEmpty, status.st_mode & S_IFMT == S_IFIFO, pipe == nil {
                    throw FileReadError(path: path, reason: "is a FIFO, and nothing was written to it")
                }
                if let pipe { readPipes.withLock { $0[path] = (pipe, bytes) } }
                return bytes
            }
            bytes.append(contentsOf: buffer[0..<count])
            // A file that grew after the size check, or one without a size (a pipe).
            if let limit, bytes.count > limit {
                throw FileReadError(
                    path: path, reason: "the file is over the limit of \(ConfigLimits.describe(bytes: limit))")
            }
        }
    }

    /// How long a pipe or FIFO may take to give its whole contents.
    public static let pipeWait: TimeInterval = 5

    /// What each anonymous pipe read so far held, by path, with the pipe's inode.
    private static let readPipes = Mutex<[String: (inode: ino_t, bytes: [UInt8])]>([:])
    /// The pipes and FIFOs that gave no end of file in time, by path, with their inode and when.
    private static let stalledPipes = Mutex<[String: (inode: ino_t, at: Date)]>([:])

    /// Whether `descriptor` is an anonymous pipe (`/dev/fd/63` of a shell's `<(…)`), which cannot be read again,
    /// rather than a named FIFO, which can be written again.
    private static func isAnonymousPipe(_ descriptor: Int32) -> Bool {
        var target = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/self/fd/\(descriptor)", &target, target.count - 1)
        guard count > 0 else { return false }
        return String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self).hasPrefix("pipe:")
    }

    /// The reason for `errno`, worded as the checks above word theirs.
    static func failure(path: String, errno code: Int32) -> FileReadError {
        switch code {
        case ENOENT:
            // A dotfile manager's link whose file is gone (or not made yet): say where it points.
            FileReadError(
                path: path,
                reason: SymbolicLink.target(of: path).map { "a link to \($0), which does not exist" } ?? "no such file")
        case EACCES: FileReadError(path: path, reason: "cannot read the file: permission denied")
        default: FileReadError(path: path, reason: "cannot read the file: \(String(cString: strerror(code)))")
        }
    }

    static func tooLarge(path: String, size: Int, limit: Int) -> FileReadError {
        FileReadError(
            path: path,
            reason:
                "the file is \(size) bytes, over the limit of \(ConfigLimits.describe(bytes: limit))"
        )
    }
}
