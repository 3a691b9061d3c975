import Foundation

/// Where the tests make their temporary directories: `/dev/shm` (a tmpfs on Linux) when this process may write there
/// and it has at least `scratchSpaceNeeded` free, else the system's temporary directory (`TMPDIR`, or /tmp).
///
/// The suite creates and deletes tens of thousands of files (every daemon's outputs, spares, records and store). On an
/// ext4 file system without a journal, such as this project's CI guest's root, ext4 does not hand out an inode freed
/// recently, and reads each candidate's inode to skip it (`recently_deleted`): every new file then scans past the
/// files the suite deleted recently, and the suite grows slower run after run. A tmpfs is also where the daemon's
/// outputs live in use (`$XDG_RUNTIME_DIR`). The free-space floor keeps the suite off a container's small /dev/shm
/// (Docker's is 64 MB).
public let scratchRoot: String = {
    var space = statvfs()
    if access("/dev/shm", W_OK | X_OK) == 0, statvfs("/dev/shm", &space) == 0,
        UInt64(space.f_bavail) * UInt64(space.f_frsize) >= scratchSpaceNeeded
    {
        return "/dev/shm"
    }
    var system = NSTemporaryDirectory()
    while system.count > 1, system.hasSuffix("/") { system.removeLast() }
    return system
}()

/// The free space `/dev/shm` needs for the tests to use it: a whole run held about 30 MB there at its peak (`df` every
/// 50 ms), so this leaves room for slower machines and larger tests.
public let scratchSpaceNeeded: UInt64 = 1 << 30

/// `scratchRoot` as a directory URL.
public var scratchRootURL: URL { URL(fileURLWithPath: scratchRoot, isDirectory: true) }
