import Glibc

/// What one line on the control FIFO turned out to be.
public enum ControlLineResult: Equatable, Sendable {
    /// A complete line (newline and a `\r` before it removed), still to be parsed by `ControlCommand`.
    case line(String)
    /// A line that was dropped, and why; the daemon logs the reason.
    case rejected(reason: String)
}

/// The daemon's end of the control FIFO: creates it, reads it without blocking, and cuts what arrives into
/// lines (DESIGN §4).
///
/// The daemon opens a write end of its own and keeps it open. Without one, the FIFO reaches end of file
/// each time the last writer closes, and from then on `poll()` reports `POLLHUP` at once, every time, and
/// the loop spins; with one, there is always a writer, so the reader only ever sees data or `EAGAIN`.
///
/// Nothing a writer sends can stop the daemon: over-long lines are dropped whole, bytes that are not UTF-8
/// are rejected, and one call reads a bounded amount so a writer that never stops cannot starve the loop.
public final class ControlFIFO {
    /// The longest line, counting its newline: `PIPE_BUF`, the most one `write` delivers unbroken when
    /// several writers share the FIFO.
    public static let maximumLineLength = 4096
    /// How much one `readLines()` reads at most before returning to the loop; the rest waits for the next
    /// call, as `poll()` will still report the FIFO readable.
    static let readBudget = 1 << 20

    /// The FIFO's path.
    public let path: String
    private let reader: FileDescriptor
    /// Held, never written: see the type's documentation.
    private let writer: FileDescriptor
    private let identity: (device: UInt64, inode: UInt64)

    /// The bytes of a line whose newline has not arrived yet.
    private var partial: [UInt8] = []
    /// Inside a line already rejected as too long: drop everything up to its newline.
    private var discarding = false

    /// The read end, for `poll()`.
    public var fileDescriptor: Int32 { reader.rawValue }

    /// Creates the FIFO at `path`, mode 0600, or reuses the one there if it passes the checks, and opens it
    /// (`mkfifo`, `open(O_RDONLY | O_NONBLOCK)`, then `open(O_WRONLY | O_NONBLOCK)`).
    ///
    /// Call `ControlPaths.prepare()` first: this checks the FIFO, the directory holding it is checked there.
    /// - Throws: `ControlPathError` when the path is a symbolic link, not a FIFO, another user's, or open to
    ///   group or others, or when a call fails.
    public init(path: String) throws(ControlPathError) {
        self.path = path
        do {
            try systemCall("mkfifo", path) { mkfifo(path, 0o600) }
        } catch {
            // EEXIST: something is there already (a dangling link too: mkfifo does not follow it); the checks
            // below decide whether it is a FIFO we may reuse.
            guard error.errno == EEXIST else { throw .system(error) }
        }
        try ControlPaths.checkFIFO(path)
        // O_NOFOLLOW and the fstat checks catch a FIFO replaced since the lstat.
        let (reader, readInfo) = try Self.open(path, O_RDONLY)
        try ControlPaths.checkFIFO(readInfo, of: path)
        // Never blocks: a reader exists (ours), so opening for writing succeeds at once.
        let (writer, writeInfo) = try Self.open(path, O_WRONLY)
        guard writeInfo.st_dev == readInfo.st_dev && writeInfo.st_ino == readInfo.st_ino else {
            throw .notAFIFO(path: path)  // swapped between our two opens
        }
        self.reader = reader
        self.writer = writer
        identity = (UInt64(readInfo.st_dev), UInt64(readInfo.st_ino))
    }

    /// Opens `path` without blocking or following a link, and says what was opened (`open`, `fstat`).
    private static func open(_ path: String, _ access: Int32) throws(ControlPathError) -> (FileDescriptor, stat) {
        try withPathErrors { () throws(SystemError) in
            let descriptor = try FileDescriptor.open(path, access | O_NONBLOCK | O_NOFOLLOW)
            return (descriptor, try descriptor.status())
        }
    }

    /// Every complete line available now, in order (`read` until `EAGAIN` or the read budget); never blocks.
    ///
    /// A line without its newline yet is kept for the next call. Empty lines are skipped. A line longer than
    /// `maximumLineLength` is rejected once, as soon as it is too long, and the rest of it is dropped up to its
    /// newline; a line that is not UTF-8 is rejected. Reasons: "line longer than 4096 bytes", "not UTF-8".
    public func readLines() -> [ControlLineResult] {
        var results: [ControlLineResult] = []
        var budget = Self.readBudget
        while budget > 0 {
            let chunk: [UInt8]
            do {
                chunk = try reader.read(upTo: min(budget, 64 * 1024))
            } catch {
                precondition(error.errno == EAGAIN, "reading the control FIFO cannot fail with \(error)")
                break
            }
            if chunk.isEmpty { break }  // cannot happen while we hold a write end; stop rather than spin
            budget -= chunk.count
            split(chunk, into: &results)
        }
        return results
    }

    /// Unlinks the FIFO (`unlink`) for a clean stop, unless the path now names something else.
    public func remove() {
        var info = stat()
        guard lstat(path, &info) == 0, UInt64(info.st_dev) == identity.device, UInt64(info.st_ino) == identity.inode
        else { return }
        _ = unlink(path)
    }

    /// Cuts `bytes` at newlines, joining the first piece to the partial line from before.
    private func split(_ bytes: [UInt8], into results: inout [ControlLineResult]) {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
            let piece = bytes[start..<(newline ?? bytes.endIndex)]
            if !discarding {
                // The line, with its newline, must fit in maximumLineLength bytes.
                if partial.count + piece.count + 1 > Self.maximumLineLength {
                    results.append(.rejected(reason: "line longer than \(Self.maximumLineLength) bytes"))
                    partial.removeAll(keepingCapacity: true)
                    discarding = true
                } else {
                    partial += piece
                }
            }
            guard let newline else { return }
            if discarding {
                discarding = false
            } else {
                finishLine(into: &results)
            }
            start = newline + 1
        }
    }

    private func finishLine(into results: inout [ControlLineResult]) {
        defer { partial.removeAll(keepingCapacity: true) }
        var line = partial[...]
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard !line.isEmpty else { return }
        guard let text = String(validating: line, as: UTF8.self) else {
            results.append(.rejected(reason: "not UTF-8"))
            return
        }
        results.append(.line(text))
    }
}
