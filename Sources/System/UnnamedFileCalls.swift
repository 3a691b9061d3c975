internal import CLinux
import Glibc

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

    /// Gives the open unnamed file the name `name` in `directory` (`linkat(AT_EMPTY_PATH)`); -1 and `errno` on
    /// failure: `EEXIST` when the name is taken, by anything (a file, a directory, a symbolic link, which is not
    /// followed): a link never replaces a name.
    ///
    /// Before Linux 6.10 only a process with `CAP_DAC_READ_SEARCH` may link a descriptor, and others get `ENOENT`.
    /// The other way, linking `/proc/self/fd/N` with `AT_SYMLINK_FOLLOW`, is not taken: it costs no less than a
    /// temporary file renamed, which is the fallback anyway.
    public static func link(_ descriptor: Int32, in directory: Int32, as name: String) -> Int32 {
        widgetd_link_open_file(descriptor, directory, name)
    }
}
