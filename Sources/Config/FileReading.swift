import Basics
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
    /// any file does, to its end. A pipe can be read once, and one command reads its config more than once (the
    /// `plugins:` section first, then the whole), so what a pipe held is kept for the later reads of its path.
    public static func contents(of path: String, atMost limit: Int? = nil) throws(FileReadError) -> [UInt8] {
        if let kept = readPipes.withLock({ $0[path] }) { return kept }
        let descriptor = retryingInterrupted { open(path, O_RDONLY | O_CLOEXEC) }
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
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { chunk in
                retryingInterrupted { read(descriptor, chunk.baseAddress, chunk.count) }
            }
            guard count >= 0 else { throw failure(path: path, errno: errno) }
            if count == 0 {
                if status.st_mode & S_IFMT == S_IFIFO { readPipes.withLock { $0[path] = bytes } }
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

    /// What each pipe read so far held, by path.
    private static let readPipes = Mutex<[String: [UInt8]]>([:])

    /// The reason for `errno`, worded as the checks above word theirs.
    static func failure(path: String, errno code: Int32) -> FileReadError {
        switch code {
        case ENOENT: FileReadError(path: path, reason: "no such file")
        case EACCES: FileReadError(path: path, reason: "cannot read the file: permission denied")
        default: FileReadError(path: path, reason: "cannot read the file: \(String(cString: strerror(code)))")
        }
    }

    static func tooLarge(path: String, size: Int, limit: Int) -> FileReadError {
        FileReadError(
            path: path,
            reason:
                "the file is \(ConfigLimits.describe(bytes: size)); the limit is \(ConfigLimits.describe(bytes: limit))"
        )
    }
}
