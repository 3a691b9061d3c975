import Basics
import Glibc
import System

/// A file's first write without a temporary name: the file is made with no name in its directory (`O_TMPFILE`),
/// filled, and linked in under its name (`linkat`) only once it is whole, so a reader finds no file or the whole one,
/// as with `write`'s rename. The same four calls cost the kernel less: no temporary name is looked up, made and then
/// moved; at a first start with many widgets those writes are most of the start-up (docs/PERFORMANCE.md, "First
/// writes and start-up").
///
/// A link never replaces a name: where the file exists the link fails and nothing changes, and the caller replaces it
/// with `write`. Nothing is ever written through a symbolic link: the file is made in the directory open as
/// `directory`, and a link put in the name's place fails the link like any other file there.
extension AtomicFile {
    /// What became of a new file's write.
    public enum NewFileWrite: Equatable, Sendable {
        /// The file was written whole and linked in under its name.
        case linked
        /// The name exists: nothing was written or changed. Replace the file with `write`.
        case nameTaken
        /// Files cannot be made unnamed or linked in here (the filesystem, or a kernel before 3.11, or before 6.10
        /// without `CAP_DAC_READ_SEARCH`), or the link failed otherwise: nothing was written. Write the file with
        /// `write`, which reports a failure that lasts.
        case unsupported
    }

    /// Writes `bytes` as the new file `name` in the directory open as `directory`, with exactly `permissions`, unless
    /// the name exists; `directoryPath` (ending in `/`) only names the file in errors.
    public static func writeNew(
        _ bytes: [UInt8], named name: String, in directory: Int32, at directoryPath: String,
        permissions: mode_t = 0o600
    ) throws(OutputError) -> NewFileWrite {
        try writeNew(
            bytes, named: name, in: directory, at: directoryPath, permissions: permissions,
            opening: UnnamedFileCalls.open)
    }

    /// `writeNew` with the unnamed file's `open` given: tests stand in a filesystem without `O_TMPFILE` with it.
    static func writeNew(
        _ bytes: [UInt8], named name: String, in directory: Int32, at directoryPath: String, permissions: mode_t,
        opening open: (_ directory: Int32, _ permissions: mode_t) -> Int32
    ) throws(OutputError) -> NewFileWrite {
        let descriptor = retryingInterrupted { open(directory, permissions) }
        if descriptor == -1 {
            let code = errno
            // EISDIR and EINVAL: a kernel before O_TMPFILE (3.11) sees a directory open, or flags it does not know.
            if code == EOPNOTSUPP || code == EISDIR || code == EINVAL { return .unsupported }
            throw OutputError(call: "open", path: directoryPath + name, errno: code)
        }
        do throws(OutputError) {
            // `open` applies the umask to the mode; the file must end up with exactly the permissions asked for.
            if permissions & processUmask != 0 {
                try Syscall.retrying("fchmod", path: directoryPath + name) { fchmod(descriptor, permissions) }
            }
            try writeAll(bytes, to: descriptor, path: directoryPath + name)
        } catch {
            // The file has no name: closing its last descriptor frees it.
            close(descriptor)
            throw error
        }
        if retryingInterrupted({ UnnamedFileCalls.link(descriptor, in: directory, as: name) }) == -1 {
            let code = errno
            close(descriptor)
            return code == EEXIST ? .nameTaken : .unsupported
        }
        // Linux releases the descriptor even when `close` fails; an error (EIO) means the data may be lost, and the
        // name was free before this write, so it is taken back (as `write` then leaves the old file).
        if close(descriptor) == -1 {
            let error = OutputError(call: "close", path: directoryPath + name, errno: errno)
            unlinkat(directory, name, 0)
            throw error
        }
        return .linked
    }
}
