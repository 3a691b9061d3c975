import Basics
import Glibc
import Synchronization

/// The system's /proc and /sys files the kinds read, kept open between reads and read again from their start.
///
/// procfs and sysfs make a file's text afresh at a read from offset 0, so a kept descriptor reads the current values,
/// and a sample (CPU, memory and load every few seconds) saves an open's path walk and a close per file. Other files
/// (a test's procfs-shaped tree) are opened at every read: there a file may be replaced by a rename, and a kept
/// descriptor would go on reading the old one. A read that fails (a battery's directory gone) closes the descriptor;
/// the next read of the path opens it again.
final class KeptFiles: Sendable {
    /// Kept descriptors by path. Kinds are called from the loop and from provider threads: each read runs under the
    /// lock, so no descriptor is closed while another thread reads it.
    private let descriptors = Mutex<[String: Int32]>([:])

    /// The whole of the file at `path` (at most `limit` bytes are read), or nil when it cannot be read. `keep`: the
    /// file is made afresh at each read (procfs, sysfs), and its descriptor may stay open for the next.
    func bytes(_ path: String, keep: Bool, limit: Int) -> [UInt8]? {
        guard keep else {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            return Self.read(descriptor, limit: limit)
        }
        return descriptors.withLock { kept in
            if let descriptor = kept[path] {
                if let bytes = Self.read(descriptor, limit: limit) { return bytes }
                close(descriptor)
                kept[path] = nil
            }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            let bytes = Self.read(descriptor, limit: limit)
            if bytes != nil {
                kept[path] = descriptor
            } else {
                close(descriptor)
            }
            return bytes
        }
    }

    /// How many descriptors are kept, for tests.
    var count: Int { descriptors.withLock { $0.count } }

    /// Reads from offset 0 to the end, or to `limit` bytes: into a buffer of 8 kB (every /proc file a kind samples
    /// fits), read again whole into a larger one when it fills.
    private static func read(_ descriptor: Int32, limit: Int) -> [UInt8]? {
        var size = min(8192, limit)
        while true {
            var failed = false
            var ended = false
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                count = 0
                while count < size {
                    let read = retryingInterrupted {
                        pread(descriptor, buffer.baseAddress! + count, size - count, off_t(count))
                    }
                    if read < 0 { failed = true }
                    if read <= 0 { break }
                    count += read
                }
                ended = count < size
            }
            if failed { return nil }
            if ended || size >= limit { return bytes }
            size = min(size * 4, limit)
        }
    }
}
