import Basics
import Glibc

/// The thin layer that reads the system: files under /proc and /sys, directory listings and `statvfs`. Everything
/// else in this module is pure and takes what this reads.
///
/// `root` moves the tree: the kinds read `root + "/proc/stat"`. It is empty on a real system; tests hand the kinds a
/// procfs/sysfs-shaped directory, and end-to-end tests set `WIDGETD_SYSTEM_ROOT` for the built binary (read once,
/// for tests only: docs/kinds.md, "System kinds").
public struct SystemFiles: Sendable, Hashable {
    public var root: String

    public init(root: String) {
        var root = root
        while root.hasSuffix("/") { root.removeLast() }
        self.root = root
    }

    /// The real system, or the tree `WIDGETD_SYSTEM_ROOT` names.
    public static let standard = SystemFiles(root: getenv("WIDGETD_SYSTEM_ROOT").map { String(cString: $0) } ?? "")

    /// The whole text of a (small) file, or nil when it cannot be read.
    public func text(_ path: String) -> String? {
        bytes(path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The whole of a (small) file, or nil when it cannot be read. /proc files report a size of 0, so this reads to the
    /// end rather than trusting `st_size`; 256 kB is far more than any file the kinds read. A procfs or sysfs file stays
    /// open for the next read (`KeptFiles`).
    public func bytes(_ path: String) -> [UInt8]? {
        Self.kept.bytes(
            root + path, keep: root.isEmpty && (path.hasPrefix("/proc/") || path.hasPrefix("/sys/")), limit: 256 * 1024)
    }

    /// The files every `SystemFiles` reads, kept open: one table for the process, as the files are the system's.
    static let kept = KeptFiles()

    /// The names in a directory, sorted, without `.` and `..`; empty when it cannot be read.
    public func entries(of directory: String) -> [String] {
        guard let stream = opendir(root + directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// `statvfs(3)` of the file system holding `path`, or the `errno` that stopped it.
    public func fileSystem(at path: String) -> Result<FileSystemBlocks, FileSystemError> {
        var buffer = statvfs()
        guard retryingInterrupted({ statvfs(root + path, &buffer) }) == 0 else {
            return .failure(FileSystemError(code: errno))
        }
        return .success(
            FileSystemBlocks(
                fragmentSize: UInt64(buffer.f_frsize), blocks: UInt64(buffer.f_blocks), free: UInt64(buffer.f_bfree),
                available: UInt64(buffer.f_bavail)))
    }
}

/// Why `statvfs` failed, with the message `strerror` gives.
public struct FileSystemError: Error, Sendable, Hashable {
    public var code: Int32
    public var message: String { String(cString: strerror(code)) }
}
