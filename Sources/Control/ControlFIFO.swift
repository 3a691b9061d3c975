import Glibc
import System

/// What one line on the control FIFO turned out to be.
public enum ControlLineResult: Equatable, Sendable {
    /// A complete line (newline and a `\r` before it removed; or all a writer sent before it closed the FIFO),
    /// still to be parsed by `ControlCommand`.
    case line(String)
    /// A line that was dropped, and why; the daemon logs the reason.
    case rejected(reason: String)
}

/// The daemon's end of the control FIFO: creates it, reads it without blocking, and cuts what arrives into
/// lines (DESIGN §4).
///
/// A line ends at its newline, or where its writer closed the FIFO: `printf 'reload all' > control` is one request,
/// not the first half of the next writer's line. The reader sees the close as end of file (`read` returns 0 once
/// every writer has gone); the partial line is then taken as complete, and the read end is opened again, because
/// `poll()` on a FIFO reader that has seen its writers go reports `POLLHUP` at once, every time, and the loop would
/// spin. A fresh read end reports nothing until a writer has come and gone again (Linux keeps, per open file, the
/// writer count it has seen). The new read end is opened through `/proc/self/fd` before the old one closes: there
/// is never a moment with no reader (a writer would get `ENXIO`, "not running"), and it works even when the path
/// was unlinked or replaced meanwhile.
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
    /// Nil once reopening failed (no `/proc`, no descriptors left): the daemon then makes a new FIFO.
    private var reader: FileDescriptor?
    private let identity: (device: UInt64, inode: UInt64)

    /// What one `read` fills, kept for the FIFO's lifetime: a buffer made per read was the one large allocation of a
    /// reload (two reads per wake-up, the second finding the FIFO empty).
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)

    /// The bytes of a line whose newline has not arrived yet.
    private var partial: [UInt8] = []
    /// Inside a line already rejected as too long: drop everything up to its newline.
    private var discarding = false

    /// The read end, for `poll()`; -1 (which `poll` skips) once it is closed.
    public var fileDescriptor: Int32 { reader?.rawValue ?? -1 }

    /// Whether the read end is open; false after a failed reopen.
    public var isOpen: Bool { reader != nil }

    /// Whether `path` still names this FIFO (`lstat`): false once it was deleted, or replaced by something else.
    public var isInPlace: Bool {
        var info = stat()
        return lstat(path, &info) == 0 && UInt64(info.st_dev) == identity.device
            && UInt64(info.st_ino) == identity.inode
    }

    /// Creates the FIFO at `path`, mode 0600, or reuses the one there if it passes the checks, and opens it
    /// (`mkfifo`, then `open(O_RDONLY | O_NONBLOCK)`).
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
        self.reader = reader
        identity = (UInt64(readInfo.st_dev), UInt64(readInfo.st_ino))
    }

    deinit {
        buffer.deallocate()
    }

    /// Opens `path` without blocking or following a link, and says what was opened (`open`, `fstat`).
    private static func open(_ path: String, _ access: Int32) throws(ControlPathError) -> (FileDescriptor, stat) {
        try withPathErrors { () throws(SystemError) in
            let descriptor = try FileDescriptor.open(path, access | O_NONBLOCK | O_NOFOLLOW)
            return (descriptor, try descriptor.status())
        }
    }

    /// Every complete line available now, in order (`read` until a read comes back short, end of file or the read
    /// budget); never blocks.
    ///
    /// A read that fills less than it asked for emptied the FIFO: a pipe's `read` returns what is there, up to the
    /// size asked. Reading again would only return `EAGAIN`, or the end of file of writers that have just closed —
    /// which `poll()` reports at once (`POLLHUP`), so the next call reads it and finishes their line then. A reload's
    /// line is one short read: one system call instead of two before its file is written.
    ///
    /// A line without its newline yet is kept for the next call, unless its writer has closed the FIFO: then it is
    /// complete (see the type's documentation). Empty lines are skipped. A line longer than `maximumLineLength` is
    /// rejected once, as soon as it is too long, and the rest of it is dropped up to its newline (or its writer's
    /// close), without being kept; a line that is not UTF-8 is rejected. Reasons: "line longer than 4096 bytes",
    /// "not UTF-8".
    public func readLines() -> [ControlLineResult] {
        var results: [ControlLineResult] = []
        var budget = Self.readBudget
        while budget > 0, let reader {
            let count: Int
            do {
                count = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(budget)))
            } catch {
                precondition(error.errno == EAGAIN, "reading the control FIFO cannot fail with \(error)")
                break
            }
            if count == 0 {
                // End of file: every writer has closed. Whatever line they left unfinished ends here.
                endOfWriters(into: &results)
                break
            }
            let asked = min(budget, buffer.count)
            budget -= count
            split(UnsafeRawBufferPointer(rebasing: buffer.prefix(count)), into: &results)
            if count < asked { break }
        }
        return results
    }

    /// The writers have all gone: finishes the pending line and opens a fresh read end (see the type's
    /// documentation); without one, `isOpen` turns false.
    private func endOfWriters(into results: inout [ControlLineResult]) {
        if discarding {
            discarding = false
        } else {
            finishLine(into: &results)
        }
        guard let old = reader else { return }
        // Opened before the old one closes, so a reader exists throughout. Not by path: the path may be gone.
        let fresh = try? FileDescriptor.open("/proc/self/fd/\(old.rawValue)", O_RDONLY | O_NONBLOCK)
        if let fresh, let info = try? fresh.status(), UInt64(info.st_dev) == identity.device,
            UInt64(info.st_ino) == identity.inode
        {
            reader = fresh
        } else {
            reader = nil
        }
    }

    /// Unlinks the FIFO (`unlink`) for a clean stop, unless the path now names something else (another daemon's).
    public func remove() {
        guard isInPlace else { return }
        _ = unlink(path)
    }

    /// Cuts `bytes` at newlines, joining the first piece to the partial line from before.
    private func split(_ bytes: UnsafeRawBufferPointer, into results: inout [ControlLineResult]) {
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
