internal import CLinux
import Glibc

/// Watches on single files, for a reader that must wake for one file only: a directory watch wakes for every file
/// in the directory, and `show --follow` beside a per-second clock would wake with every tick of the clock's files.
extension Inotify.Mask {
    /// The file's metadata changed (`IN_ATTRIB`); its link count dropping to zero is how a watch on a file sees an
    /// atomic writer rename a new file over it.
    public static let attributes = Inotify.Mask(rawValue: UInt32(IN_ATTRIB))

    /// What a watch on one file needs to see it written in place, replaced by a rename, deleted or moved.
    public static let fileReplaced: Inotify.Mask = [.attributes, .closeWrite, .deleteSelf, .moveSelf]
}

extension Inotify {
    /// Watches the file at `path` itself, not its directory (`inotify_add_watch` without `IN_ONLYDIR`). The watch
    /// follows the inode: once a rename replaces the file, the caller must watch the path again.
    public func watch(file path: String, mask: Mask = .fileReplaced) throws(SystemError) -> Watch {
        let raw = try systemCall("inotify_add_watch", path) {
            inotify_add_watch(fileDescriptor, path, mask.rawValue | UInt32(IN_DONT_FOLLOW))
        }
        return Watch(rawValue: raw)
    }
}
