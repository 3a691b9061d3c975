import Basics
import Glibc
import System

/// Replacing a file by exchanging it with a spare that holds the next contents, so that the replaced file becomes the
/// next spare: a swap then rewrites an inode instead of creating one and freeing another, which was most of what the
/// kernel spent per swap on tmpfs (docs/PERFORMANCE.md, "Swap cost").
///
/// A reader still sees the old file or the new one, whole, never a partial write:
/// - The spare is rewritten only under a write lease (`fcntl(F_SETLEASE, F_WRLCK)`), which the kernel grants only
///   while no other descriptor in any process has the file open: a reader that opened the file before it was exchanged
///   away and is still reading keeps it as it was, and the spare is then dropped (`busy`) and a new one made. An
///   open() that comes while the lease is held (a reader that looked the name up just before the exchange) waits
///   until the file is written whole and the lease given up.
/// - New contents as long as the spare's old ones are written over them in place; any other length truncates the old
///   contents away first, at the write or, for a held spare, already after its last exchange
///   (`HeldSpares.emptyRetiredSpares`). Freeing the spare's page and taking a new one would be a large part of the
///   daemon's CPU per swap of per-second clocks, whose text never changes length (docs/PERFORMANCE.md, "Swap cost").
///   Only a reader that spliced the file into a pipe (`splice`, `sendfile`: tmpfs lends the page itself),
///   closed it and left the pipe unread for the two swaps until that inode is rewritten sees a difference: the pipe
///   then holds a later version of the same length, which is whole unless it is read during the write's few-byte
///   copy. A version of another length never shows through such a pipe cut or padded, because the truncation gives
///   the old page up.
/// - The spare is `.<name>.<pid>`, the temporary name `AtomicFile.write` uses, hidden from globs and this process's
///   own: no other process rewrites it.
extension AtomicFile {
    /// What became of a spare rewrite.
    public enum SpareRewrite: Equatable, Sendable {
        /// The file now has the new contents, and the spare holds the file it replaced.
        case exchanged
        /// The file was missing, so the new contents were renamed to it: there is no spare any more.
        case renamed
        /// The filesystem cannot exchange names, so the new contents were renamed over the file: there is no spare.
        case renamedWithoutExchange
        /// The spare is gone (someone deleted it): nothing was written.
        case missing
        /// Someone still has the spare open, or it is not a file: nothing was written, and it must not be reused.
        case busy
        /// Leases are off or unsupported here: nothing was written.
        case noLease
    }

    /// The spare's name for the file `name`: `.<name>.<pid>`.
    public static func spareName(for name: String) -> String {
        // Joined, not interpolated: this runs before every bar file's write.
        "." + name + processSuffix
    }

    /// A file's name and its spare's as C strings, for the system calls of one rewrite (`withSpareNames`): made at
    /// every swap, the spare's name was a concatenation, and each name passed to a system call a copy (a name of up to
    /// 15 bytes is a small `String`, which has no C string to lend), three allocations per swap (docs/PERFORMANCE.md,
    /// "Swap cost"). They live on the stack for the one write, so a file costs no memory for them between writes (kept
    /// per file, they would add to the memory of every instance).
    struct SpareNames {
        let name: String
        let cName: UnsafePointer<CChar>
        let cSpare: UnsafePointer<CChar>

        /// The spare's name as a `String`, for error messages.
        var spare: String { String(cString: cSpare) }
    }

    /// Calls `body` with `name`'s and its spare's C strings, made in one buffer on the stack.
    static func withSpareNames<Result>(
        for name: String, _ body: (SpareNames) throws(OutputError) -> Result
    ) throws(OutputError) -> Result {
        let nameLength = name.utf8.count
        let capacity = nameLength + 1 + 1 + nameLength + processSuffix.utf8.count + 1
        let outcome = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) {
            buffer -> Swift.Result<Result, OutputError> in
            // `count` is passed in and returned, not captured: a closure that changed a captured `var` would make
            // every access to it a checked one (`swift_beginAccess`).
            func append(_ text: String, at start: Int) -> Int {
                text.withUTF8Bytes { bytes in
                    if let source = bytes.baseAddress {
                        UnsafeMutableRawPointer(buffer.baseAddress! + start).copyMemory(
                            from: source, byteCount: bytes.count)
                    }
                    return start + bytes.count
                }
            }
            let nameEnd = append(name, at: 0)
            buffer[nameEnd] = 0
            let spareStart = nameEnd + 1
            buffer[spareStart] = CChar(bitPattern: UInt8(ascii: "."))
            let spareEnd = append(processSuffix, at: append(name, at: spareStart + 1))
            buffer[spareEnd] = 0
            let base = UnsafePointer(buffer.baseAddress!)
            do throws(OutputError) {
                return .success(try body(SpareNames(name: name, cName: base, cSpare: base + spareStart)))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Writes `bytes` into the spare of `name` in `directory` and exchanges the two, when no one else has the spare
    /// open. The spare must be a file this process made with the permissions the file needs and that nobody sees
    /// (the caller's bookkeeping: it held an earlier version of `name`).
    public static func rewriteSpare(
        _ bytes: [UInt8], named name: String, in directory: Int32, at directoryPath: String
    ) throws(OutputError) -> SpareRewrite {
        try withSpareNames(for: name) { names throws(OutputError) in
            try rewriteSpare(bytes, names: names, in: directory, at: directoryPath)
        }
    }

    /// `rewriteSpare(_:named:in:at:)` with the names made once.
    static func rewriteSpare(
        _ bytes: [UInt8], names: SpareNames, in directory: Int32, at directoryPath: String
    ) throws(OutputError) -> SpareRewrite {
        func shown() -> String { directoryPath + names.spare }
        // O_NONBLOCK: a FIFO someone put there fails at once instead of waiting for a reader.
        let descriptor = retryingInterrupted {
            openat(directory, names.cSpare, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        }
        if descriptor == -1 {
            switch errno {
            case ENOENT: return .missing
            case ELOOP, EISDIR, ENXIO, EWOULDBLOCK: return .busy  // not a file of ours: replaced like a busy one
            default: throw OutputError(call: "open", path: shown(), errno: errno)
            }
        }
        let refused: SpareRewrite?
        do throws(OutputError) {
            refused = try rewriteLeased(descriptor, size: nil, with: bytes, shownAs: shown())
        } catch {
            close(descriptor)
            throw error
        }
        if let refused {
            close(descriptor)
            return refused
        }
        // A close error may mean lost data, so the file is not replaced (as in `write`).
        if close(descriptor) == -1 {
            throw OutputError(call: "close", path: shown(), errno: errno)
        }
        return try exchange(names, in: directory, at: directoryPath)
    }

    /// `rewriteSpare` through a descriptor this process holds open on the spare (`HeldSpares`), with no open or close:
    /// `.exchanged`, or `.busy` and `.noLease` as there, or `.missing` when either name is gone (someone deleted the
    /// spare or the file; nothing was exchanged, and the caller writes by name).
    static func rewriteHeldSpare(
        _ bytes: [UInt8], descriptor: Int32, size: Int, names: SpareNames, in directory: Int32,
        at directoryPath: String
    ) throws(OutputError) -> SpareRewrite {
        if let refused = try rewriteLeased(descriptor, size: size, with: bytes, shownAs: directoryPath + names.spare) {
            return refused
        }
        if retryingInterrupted({ SpareFileCalls.exchange(in: directory, names.cSpare, names.cName) }) == 0 {
            return .exchanged
        }
        let code = errno
        guard code == ENOENT else {
            throw OutputError(
                call: "renameat2", path: "\(directoryPath + names.spare), \(directoryPath + names.name)", errno: code)
        }
        return .missing
    }

    /// Replaces the contents of the spare open as `descriptor` under a write lease: writes `bytes` from its start, over
    /// the old ones when the spare holds `size` bytes and that is as many or none (a held spare's size is known), else
    /// after truncating it, and gives the lease up. nil once written; `.busy` or `.noLease` when the lease is refused
    /// (nothing written). Written from offset 0 (`pwrite`): a held descriptor's offset is where its last write ended.
    static func rewriteLeased(
        _ descriptor: Int32, size: Int?, with bytes: [UInt8], shownAs shown: @autoclosure () -> String
    ) throws(OutputError) -> SpareRewrite? {
        if SpareFileCalls.takeWriteLease(descriptor) == -1 {
            let code = errno
            return code == EAGAIN || code == EWOULDBLOCK ? .busy : .noLease
        }
        do throws(OutputError) {
            // Another length gives the old page up rather than overwriting it: see the type's comment on spliced pages.
            // An empty spare has no bytes to give up (`HeldSpares.emptyRetiredSpares`).
            if size != bytes.count, size != 0 {
                try Syscall.retrying("ftruncate", path: shown()) { ftruncate(descriptor, 0) }
            }
            try writeAllFromStart(bytes, to: descriptor, path: shown())
        } catch {
            SpareFileCalls.releaseLease(descriptor)
            throw error
        }
        // Given up at once, not with the descriptor's close: a child being started holds a copy of every descriptor
        // until its exec, and a held descriptor is not closed at all.
        SpareFileCalls.releaseLease(descriptor)
        return nil
    }

    /// Writes all of `bytes` at offset 0 onwards (`pwrite`), continuing after partial writes.
    private static func writeAllFromStart(
        _ bytes: [UInt8], to descriptor: Int32, path: @autoclosure () -> String
    ) throws(OutputError) {
        let failure: OutputError? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                do throws(OutputError) {
                    offset += try Syscall.retrying("write", path: path()) {
                        pwrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset, off_t(offset))
                    }
                } catch {
                    return error
                }
            }
            return nil
        }
        if let failure {
            throw failure
        }
    }

    /// Writes `bytes` to a new spare of `name` and exchanges the two, so that the spare then holds the file that was
    /// `name` (`.exchanged`), or renames it to `name` when there was none (`.renamed`). A leftover spare (one this
    /// process lost track of, or a crashed process's whose pid came back) is removed first: nobody sees it.
    public static func writeThroughNewSpare(
        _ bytes: [UInt8], named name: String, in directory: Int32, at directoryPath: String,
        permissions: mode_t = 0o600
    ) throws(OutputError) -> SpareRewrite {
        let spare = spareName(for: name)
        func shown() -> String { directoryPath + spare }
        func create() -> Int32 {
            retryingInterrupted {
                openat(directory, spare, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, permissions)
            }
        }
        var descriptor = create()
        if descriptor == -1, errno == EEXIST {
            unlinkat(directory, spare, 0)
            descriptor = create()
            // Still there (a directory someone made with that name): written the usual way, with no spare.
            if descriptor == -1, errno == EEXIST {
                try write(bytes, named: name, in: directory, at: directoryPath, permissions: permissions)
                return .renamed
            }
        }
        if descriptor == -1 {
            throw OutputError(call: "open", path: shown(), errno: errno)
        }
        try fill(descriptor, with: bytes, permissions: permissions, removing: spare, in: directory, shownAs: shown())
        do throws(OutputError) {
            return try withSpareNames(for: name) { names throws(OutputError) in
                try exchange(names, in: directory, at: directoryPath)
            }
        } catch {
            unlinkat(directory, spare, 0)
            throw error
        }
    }

    /// Exchanges the written spare with `name`; when `name` is missing, or the filesystem cannot exchange, renames
    /// the spare to it instead (`.renamed`, `.renamedWithoutExchange`).
    private static func exchange(
        _ names: SpareNames, in directory: Int32, at directoryPath: String
    ) throws(OutputError) -> SpareRewrite {
        if retryingInterrupted({ SpareFileCalls.exchange(in: directory, names.cSpare, names.cName) }) == 0 {
            return .exchanged
        }
        let code = errno
        func shown() -> String { "\(directoryPath + names.spare), \(directoryPath + names.name)" }
        guard code == ENOENT || code == EINVAL || code == ENOSYS else {
            throw OutputError(call: "renameat2", path: shown(), errno: code)
        }
        try Syscall.retrying("rename", path: shown()) {
            renameat(directory, names.cSpare, directory, names.cName)
        }
        return code == ENOENT ? .renamed : .renamedWithoutExchange
    }
}
