import Basics
import FoundationEssentials
import Glibc

/// Why the single-instance lock was not taken.
public enum LockFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another process holds the lock; its pid when it had written one.
    case alreadyRunning(pid: Int32?)
    /// Opening, locking or writing the lock file failed.
    case system(SystemError)

    public var description: String {
        switch self {
        case .alreadyRunning(let pid?): "already running (pid \(pid))"
        case .alreadyRunning(nil): "already running"
        case .system(let error): error.description
        }
    }
}

/// The daemon's single-instance lock: `<runtime dir>/lock`, held with `flock` for the life of the process.
///
/// `flock` rather than "does a pid file exist": the kernel drops the lock when the holder exits, however it
/// exits, so a crash never leaves a stale lock behind. The file holds the holder's pid so a second daemon
/// can say who is running. The lock belongs to the open file description, so a second `LockFile` for the
/// same path fails even within one process.
public final class LockFile: Sendable {
    /// The lock file's path.
    public let path: String
    private let descriptor: FileDescriptor

    /// Takes the lock at `path`, creating the file (mode 0600) if needed (`open`, then
    /// `flock(LOCK_EX | LOCK_NB)`), and writes this process's pid into it.
    ///
    /// - Throws: `.alreadyRunning(pid:)` when another open of the file holds the lock, with the pid it
    ///   wrote (nil if it has not written one yet).
    public init(path: String) throws(LockFileError) {
        self.path = path
        descriptor = try Self.lock(path)
        do {
            try Self.writePID(getpid(), to: descriptor)
        } catch {
            throw .system(error)
        }
    }

    /// Whether `path` still names the file this lock holds (`fstat`, `lstat`): false once it was deleted (an
    /// `rm -rf` of the runtime directory) or replaced, perhaps by another daemon's.
    public var isInPlace: Bool {
        var named = stat()
        guard let locked = try? descriptor.status(), lstat(path, &named) == 0 else { return false }
        return locked.st_dev == named.st_dev && locked.st_ino == named.st_ino
    }

    /// Unlinks the lock file (`unlink`), for a clean stop, unless the path now names another file: a daemon that
    /// started after ours lost its runtime directory holds that one, and unlinking it would let a third one start.
    /// The lock itself goes when this object does.
    ///
    /// Unlinking while still holding the lock is safe because `lock` below checks, after locking, that the
    /// path still names the file it locked.
    public func remove() {
        guard isInPlace else { return }
        _ = unlink(path)
        // The lock goes with its file. A process that lives on after its daemon stopped (tests run daemons in their
        // own process) would otherwise hold a lock on an unlinked inode whose number tmpfs may give the next lock
        // file, and /proc/locks would name two holders of it.
        _ = flock(descriptor.rawValue, LOCK_UN)
    }

    /// Opens and locks the file at `path`, retrying when it was replaced between the open and the lock.
    ///
    /// A stopping daemon unlinks its lock file: a process that opened the old file just before, and locks
    /// it just after, would hold a lock on a file nobody else can find, while a third process creates and
    /// locks a new one. Comparing the locked descriptor's inode with the path's closes that gap.
    private static func lock(_ path: String) throws(LockFileError) -> FileDescriptor {
        while true {
            let descriptor: FileDescriptor
            let locked: stat
            do {
                descriptor = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOFOLLOW, mode: 0o600)
            } catch {
                throw .system(error)
            }
            do {
                try systemCall("flock", path) { flock(descriptor.rawValue, LOCK_EX | LOCK_NB) }
                locked = try descriptor.status()
            } catch {
                guard error.errno == EWOULDBLOCK else { throw .system(error) }
                // The holder as the kernel knows it; what the file says only if that cannot be read (the file's text
                // is anyone's to change: `echo 1 > lock` made a running daemon "pid 1").
                throw .alreadyRunning(pid: Self.holder(of: path) ?? readPID(from: descriptor))
            }
            var named = stat()
            do {
                try systemCall("lstat", path) { lstat(path, &named) }
            } catch {
                guard error.errno == ENOENT else { throw .system(error) }
                continue  // unlinked after our open: lock a new one
            }
            if locked.st_dev == named.st_dev && locked.st_ino == named.st_ino { return descriptor }
        }
    }

    private static func writePID(_ pid: Int32, to descriptor: FileDescriptor) throws(SystemError) {
        try systemCall("ftruncate") { ftruncate(descriptor.rawValue, 0) }
        let text = Array("\(pid)\n".utf8)
        try systemCall("pwrite") { text.withUnsafeBytes { pwrite(descriptor.rawValue, $0.baseAddress, $0.count, 0) } }
    }

    /// The pid the holder wrote, if it has written one that reads as a number.
    private static func readPID(from descriptor: FileDescriptor) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor.rawValue, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self).trimmingWhitespace()
        return Int32(text).flatMap { $0 > 0 ? $0 : nil }
    }
}
