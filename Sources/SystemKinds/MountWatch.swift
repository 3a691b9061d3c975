import Basics
import Glibc
import Synchronization

/// The system's mount table (`MountTable`), read again only when a mount or an unmount changed it: the kernel marks an
/// open `/proc/self/mountinfo` with `POLLPRI` then (proc(5)), and a `poll` that returns at once tells it, one system
/// call per look. Kinds call it from several threads, so it sits behind a lock.
public final class MountWatch: Sendable {
    private struct State {
        /// The open mountinfo, or -1 when it could not be opened (a test's tree without one).
        var descriptor: Int32 = -1
        var table: MountTable?
    }

    private let path: String
    private let state = Mutex(State())

    public init(files: SystemFiles) {
        path = files.root + "/proc/self/mountinfo"
    }

    deinit {
        state.withLock { if $0.descriptor >= 0 { close($0.descriptor) } }
    }

    /// The table as it is now; nil when mountinfo cannot be read.
    public func table() -> MountTable? {
        state.withLock { state in
            if state.descriptor < 0 {
                state.descriptor = open(path, O_RDONLY | O_CLOEXEC)
                guard state.descriptor >= 0 else { return nil }
                state.table = nil
            }
            if state.table == nil || Self.changed(state.descriptor) {
                state.table = Self.read(state.descriptor).map(MountTable.init(mountinfo:))
            }
            return state.table
        }
    }

    /// Whether a mount or an unmount came since the last look: the poll itself clears the mark.
    private static func changed(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLPRI), revents: 0)
        guard retryingInterrupted({ poll(&entry, 1, 0) }) == 1 else { return false }
        return entry.revents & Int16(POLLPRI | POLLERR) != 0
    }

    /// The whole file from its start (mountinfo is made afresh at each read from offset 0).
    private static func read(_ descriptor: Int32) -> String? {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while bytes.count < 4 * 1024 * 1024 {
            let count = buffer.withUnsafeMutableBytes { raw in
                retryingInterrupted { Glibc.read(descriptor, raw.baseAddress, raw.count) }
            }
            if count < 0 { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
