internal import CLinux
import Glibc
import Synchronization

/// The two Linux calls behind an output file's first write (`AtomicFile.writeNew` in Output): a file made with no name
/// in its directory, then linked in under its name once it is whole. Swift's Glibc module imports neither
/// `O_TMPFILE` nor `AT_EMPTY_PATH` (GNU extensions).
public enum UnnamedFileCalls {
    /// Opens a new file with no name in `directory` for writing (`openat(O_TMPFILE)`), with `permissions` less the
    /// umask; -1 and `errno` on failure: `EOPNOTSUPP` where the filesystem cannot, `EISDIR` or `EINVAL` on a kernel
    /// without `O_TMPFILE` (before 3.11).
    public static func open(in directory: Int32, permissions: Glibc.mode_t) -> Int32 {
        widgetd_open_unnamed(directory, permissions)
    }

    /// Gives the open unnamed file the name `name` in `directory` (`linkat`); -1 and `errno` on failure, `EEXIST`
    /// when the name is taken, by anything (a file, a directory, a symbolic link, which is not followed): a link never
    /// replaces a name.
    ///
    /// `linkat(AT_EMPTY_PATH)` links the descriptor itself; before Linux 6.10 only a process with
    /// `CAP_DAC_READ_SEARCH` may, and others get `ENOENT`. Then `/proc/self/fd/N` with `AT_SYMLINK_FOLLOW` names the
    /// same open file (the way open(2) documents), and is used from then on.
    public static func link(_ descriptor: Int32, in directory: Int32, as name: String) -> Int32 {
        if !emptyPathRefused.load(ordering: .relaxed) {
            let result = widgetd_link_open_file(descriptor, directory, name)
            if result == 0 || errno != ENOENT { return result }
        }
        let result = linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", directory, name, AT_SYMLINK_FOLLOW)
        // Only a refusal the /proc path got past says AT_EMPTY_PATH is refused (ENOENT also means a deleted directory).
        if result == 0 { emptyPathRefused.store(true, ordering: .relaxed) }
        return result
    }

    private static let emptyPathRefused = Atomic<Bool>(false)
}
