import Basics
import FoundationEssentials
import Glibc
import Synchronization

/// Replaces a file's contents so that a reader sees either the old file or the new one, never a partial write.
///
/// Bars read the output files at any moment (`cat` from i3blocks, polybar and tmux, inotify-triggered reads), so the
/// contents go to a temporary file in the same directory, which `rename(2)` then moves over the target in one step;
/// the same directory keeps both on one filesystem, which `rename` needs.
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically, leaving the file with exactly `permissions`.
    ///
    /// The temporary file is `.<name>.<pid>`: hidden from globs such as `*.waybar`, and unique between processes
    /// (pid); `O_EXCL` refuses a leftover of a crashed process whose pid came back, or a write of the same file by
    /// another thread, and then `.<name>.<pid>.<counter>` names are tried. On any failure the temporary file is removed
    /// and the target is left as it was.
    ///
    /// There is no `fsync`: the output directory is on tmpfs (`$XDG_RUNTIME_DIR`), where there is no disk to flush,
    /// and even elsewhere a crash only loses an entry that the daemon renders again when it starts. `rename` alone
    /// gives readers the atomicity they need.
    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o600) throws(OutputError) {
        // By UTF-8 code unit: `lastIndex(of: Character)` walks grapheme clusters, dear at every swap.
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.utf8.index(after: $0)...]) } ?? path
        try write(bytes, named: name, in: AT_FDCWD, prefix: directory, shownAs: directory, permissions: permissions)
    }

    /// Writes `bytes` to the file `name` in the directory open as `directory` (`openat`, `renameat`), atomically as
    /// `write(_:to:)` does; `directoryPath` (ending in `/`) only names the files in errors.
    ///
    /// Relative to a descriptor, a directory swapped for a symbolic link after it was opened and checked is never
    /// written through: the files go to the directory that was checked, or the write fails.
    public static func write(
        _ bytes: [UInt8], named name: String, in directory: Int32, at directoryPath: String,
        permissions: mode_t = 0o600
    ) throws(OutputError) {
        try write(bytes, named: name, in: directory, prefix: "", shownAs: directoryPath, permissions: permissions)
    }

    /// Fills the new file `path` (relative to `directory`) open on `descriptor` with `bytes` and closes it. On any
    /// failure the file is removed, since nobody must see it, and the error names it as `shown`.
    static func fill(
        _ descriptor: Int32, with bytes: [UInt8], permissions: mode_t, removing path: String, in directory: Int32,
        shownAs shown: @autoclosure () -> String
    ) throws(OutputError) {
        do throws(OutputError) {
            // `open` applies the umask to the mode; the file must end up with exactly the permissions asked for.
            if permissions & processUmask != 0 {
                try Syscall.retrying("fchmod", path: shown()) { fchmod(descriptor, permissions) }
            }
            try writeAll(bytes, to: descriptor, path: shown())
        } catch {
            // Best effort: the error to report is the one that got here.
            close(descriptor)
            unlinkat(directory, path, 0)
            throw error
        }
        // Linux releases the descriptor even when `close` fails, so it is never retried; an error (EIO on a network
        // filesystem) still means the data may be lost, so the file must not replace anything.
        if close(descriptor) == -1 {
            let error = OutputError(call: "close", path: shown(), errno: errno)
            unlinkat(directory, path, 0)
            throw error
        }
    }

    /// The shared core: paths are `prefix + name` relative to `directory` (`AT_FDCWD` with the directory as prefix,
    /// or a directory descriptor with none); `shownAs` prefixes them in errors, which are the only place those
    /// paths are made.
    private static func write(
        _ bytes: [UInt8], named name: String, in directory: Int32, prefix: String, shownAs: String,
        permissions: mode_t
    ) throws(OutputError) {
        let target = prefix + name
        let (temporary, descriptor) = try createTemporary(
            in: directory, prefix: prefix, for: name, shownAs: shownAs, permissions: permissions)
        func shown() -> String { shownAs + temporary.dropFirst(prefix.count) }
        try fill(
            descriptor, with: bytes, permissions: permissions, removing: temporary, in: directory, shownAs: shown())
        do throws(OutputError) {
            try Syscall.retrying("rename", path: "\(shown()), \(shownAs + name)") {
                renameat(directory, temporary, directory, target)
            }
        } catch {
            unlinkat(directory, temporary, 0)
            throw error
        }
    }

    /// Creates the temporary file exclusively and returns its path (relative to `directory`) and open descriptor.
    ///
    /// The name is `.<name>.<pid>`, the same for every write of the file by this process (each write renames it away),
    /// so a write takes no lock and numbers nothing. Only when that name is taken (a leftover of a crashed process whose
    /// pid came back, or another thread of this one writing the same file) are numbered names tried.
    private static func createTemporary(
        in directory: Int32, prefix: String, for name: String, shownAs: String, permissions: mode_t
    ) throws(OutputError) -> (String, Int32) {
        var temporary = "\(prefix).\(name).\(processID)"
        while true {
            do throws(OutputError) {
                let descriptor = try Syscall.retrying("open", path: shownAs + temporary.dropFirst(prefix.count)) {
                    openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, permissions)
                }
                return (temporary, descriptor)
            } catch {
                // Taken: try the next numbered name.
                guard error.errno == EEXIST else { throw error }
            }
            temporary = "\(prefix).\(name).\(processID).\(counter.next())"
        }
    }

    /// Writes all of `bytes`, continuing after partial writes. `path` is made only for an error: joining the directory
    /// and the name cost a tenth of a bar file's write.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: @autoclosure () -> String) throws(OutputError) {
        // `withUnsafeBytes` rethrows untyped errors, so the typed one is carried out of the closure by hand.
        let failure: OutputError? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                do throws(OutputError) {
                    offset += try Syscall.retrying("write", path: path()) {
                        systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
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

    /// getpid() is a system call in glibc ≥ 2.25; the daemon never forks a process that writes files.
    static let processID = getpid()
    /// `.<pid>`, the end of every temporary and spare name, formatted once.
    static let processSuffix = ".\(processID)"

    /// The umask, read once from /proc/self/status (no set-and-restore race); 0o777 when unknown, which keeps fchmod.
    static let processUmask: mode_t = {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let value = mode_t(line.dropFirst(6).trimmingSpaces(), radix: 8)
        else { return 0o777 }
        return value
    }()

    /// Numbers this process's temporary files.
    private static let counter = Counter()

    /// A counter shared by every thread that writes files.
    private final class Counter: Sendable {
        private let value = Mutex<UInt64>(0)

        func next() -> UInt64 {
            value.withLock { value in
                value &+= 1
                return value
            }
        }
    }
}

/// libc's `write(2)`, which `AtomicFile.write` hides by name inside the type.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
