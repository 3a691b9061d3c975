import Glibc
import System

/// Directories opened without following a link, for writing in them by descriptor (`openat`, `renameat`,
/// `unlinkat`): a link put where a directory was is refused, never written through.
extension ControlPaths {
    /// Opens the directory `name` relative to the directory open as `parent` (`AT_FDCWD`: a path) without following a
    /// link there (`O_NOFOLLOW`), and checks what was opened as `checkDirectory(_:)` checks a path: a directory of the
    /// user's, closed to others. `path` names it in errors.
    public static func openDirectory(
        _ name: String, in parent: Int32 = AT_FDCWD, path: String
    ) throws(ControlPathError) -> FileDescriptor {
        let descriptor: Int32
        do {
            descriptor = try systemCall("open", path) {
                openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
        } catch {
            // ELOOP or ENOTDIR for a link, by kernel version: said as the checks on a path say it.
            var info = stat()
            if fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 {
                if info.st_mode & S_IFMT == S_IFLNK { throw .symbolicLink(path: path) }
                if info.st_mode & S_IFMT != S_IFDIR { throw .notADirectory(path: path) }
            }
            throw .system(error)
        }
        let directory = FileDescriptor(owning: descriptor)
        let info = try withPathErrors { () throws(SystemError) in try directory.status() }
        try checkDirectory(info, of: path)
        return directory
    }

    /// Makes the directory `name`, mode 0700, in the directory open as `parent` (`mkdirat`) unless something is there,
    /// then opens and checks it (`openDirectory`).
    /// - Returns: the directory, and whether it was made now.
    public static func makeDirectory(
        _ name: String, in parent: Int32, path: String
    ) throws(ControlPathError) -> (directory: FileDescriptor, made: Bool) {
        var made = true
        do {
            try systemCall("mkdir", path) { mkdirat(parent, name, 0o700) }
        } catch {
            guard error.errno == EEXIST else { throw .system(error) }  // there already: checked when opened
            made = false
        }
        return (try openDirectory(name, in: parent, path: path), made)
    }
}
