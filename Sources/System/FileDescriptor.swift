import Glibc

/// An open file descriptor that this object owns and closes (`close`) when it is released.
///
/// A class rather than a bare `Int32` so a descriptor cannot be closed twice or leaked on an error path:
/// whoever holds the last reference holds the descriptor. Immutable, hence `Sendable`; the kernel, not
/// this type, decides what concurrent reads and writes on one descriptor do.
public final class FileDescriptor: Sendable {
    /// The descriptor number, valid for as long as this object lives.
    public let rawValue: Int32

    /// Takes ownership of `rawValue`, which must be open and not owned by anything else.
    public init(owning rawValue: Int32) {
        precondition(rawValue >= 0, "FileDescriptor(owning: \(rawValue)): not a descriptor")
        self.rawValue = rawValue
    }

    deinit {
        // Not retried on EINTR: Linux releases the descriptor even then, and a retry could close a number
        // another thread has just been given.
        _ = Glibc.close(rawValue)
    }

    /// Opens `path` (`open`), always with `O_CLOEXEC` so no child process inherits the descriptor.
    public static func open(_ path: String, _ flags: Int32, mode: UInt32 = 0o600) throws(SystemError) -> FileDescriptor
    {
        let descriptor = try systemCall("open", path) { Glibc.open(path, flags | O_CLOEXEC, mode) }
        return FileDescriptor(owning: descriptor)
    }

    /// One `read` of at most `count` bytes; empty at end of file.
    ///
    /// Throws `EAGAIN` as a `SystemError` when the descriptor is non-blocking and nothing is there.
    public func read(upTo count: Int) throws(SystemError) -> [UInt8] {
        // Uninitialized: zeroing a 64 KiB buffer on every FIFO wake-up cost more than the rest of a reload.
        var failure: SystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(SystemError) {
                initialized = try systemCall("read") { Glibc.read(rawValue, buffer.baseAddress, count) }
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// One `read` into `buffer`, for a caller that reads often and keeps its buffer; 0 at end of file.
    ///
    /// Throws `EAGAIN` as a `SystemError` when the descriptor is non-blocking and nothing is there.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try systemCall("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads until end of file (`read` in a loop), for a blocking descriptor such as a regular file.
    public func readToEnd(chunkSize: Int = 4096) throws(SystemError) -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let chunk = try read(upTo: chunkSize)
            if chunk.isEmpty { return all }
            all += chunk
        }
    }

    /// Writes all of `bytes` (`write` in a loop: a short write continues where it stopped).
    ///
    /// On a non-blocking descriptor this throws `EAGAIN` if the other side is full, possibly after part of the
    /// bytes went out; callers that need all-or-nothing write at most `PIPE_BUF` bytes to a pipe.
    public func write(_ bytes: some Collection<UInt8>) throws(SystemError) {
        let bytes = Array(bytes)
        var written = 0
        while written < bytes.count {
            written += try systemCall("write") {
                bytes.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress! + written, $0.count - written) }
            }
        }
    }

    /// The descriptor's `stat` (`fstat`): what it really is, whatever a path said before it was opened.
    public func status() throws(SystemError) -> stat {
        var info = stat()
        try systemCall("fstat") { fstat(rawValue, &info) }
        return info
    }
}
