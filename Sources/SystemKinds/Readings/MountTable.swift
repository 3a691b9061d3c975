/// The mounts of `/proc/self/mountinfo`: where each file system is mounted and its type, to tell whether `statvfs` of
/// a path is answered from memory (a local file system) or may wait on a server, a FUSE process or an automount.
public struct MountTable: Sendable, Hashable {
    public struct Mount: Sendable, Hashable {
        /// Where it is mounted, with mountinfo's octal escapes (`\040` for a space) decoded.
        public var point: String
        /// The file system type (`ext4`, `nfs4`, `fuse.sshfs`).
        public var type: String
    }

    /// In mountinfo's order: a mount listed later over the same point hides the one before.
    public var mounts: [Mount]

    /// Types whose `statvfs` the kernel answers from the file system's own counters, never waiting on anyone: block
    /// devices' file systems and memory ones. Anything else (nfs, cifs, 9p, ceph, fuse.*, autofs …) may wait.
    static let localTypes: Set<String> = [
        "ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs", "bcachefs", "jfs", "reiserfs", "nilfs2", "zfs", "vfat", "msdos",
        "exfat", "ntfs", "ntfs3", "hfsplus", "udf", "iso9660", "squashfs", "erofs", "tmpfs", "ramfs", "overlay",
    ]

    /// Reads mountinfo's lines: `ID PARENT MAJOR:MINOR ROOT POINT OPTIONS [TAGS…] - TYPE SOURCE SUPER`. Lines that are
    /// not of that shape are skipped.
    public init(mountinfo text: String) {
        mounts = text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 7, let dash = fields.firstIndex(of: "-"), dash >= 6, dash + 1 < fields.count
            else { return nil }
            return Mount(point: Self.unescaped(fields[4]), type: String(fields[dash + 1]))
        }
    }

    /// The mount holding `path`: the one at the longest mount point that is `path` or one of its parent directories,
    /// the last listed of equals. `path` is taken as written: a symbolic link on the way is not followed.
    public func mount(holding path: String) -> Mount? {
        var best: Mount?
        for mount in mounts where Self.contains(mount.point, path) {
            if best.map({ mount.point.utf8.count >= $0.point.utf8.count }) ?? true { best = mount }
        }
        return best
    }

    /// Whether `statvfs` of `path` is answered from memory: its mount is of a local type.
    public func isLocal(_ path: String) -> Bool {
        mount(holding: path).map { Self.localTypes.contains($0.type) } ?? false
    }

    /// Whether the directory `point` is `path` or one of its parents.
    static func contains(_ point: String, _ path: String) -> Bool {
        if point == "/" { return path.hasPrefix("/") }
        guard path.hasPrefix(point) else { return false }
        let rest = path.utf8.dropFirst(point.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/")
    }

    /// mountinfo writes a space, tab, newline and backslash in a path as `\040`, `\011`, `\012` and `\134`.
    static func unescaped(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var bytes: [UInt8] = []
        let utf8 = Array(field.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "\\"), index + 3 < utf8.count,
                let value = UInt8(String(decoding: utf8[(index + 1)...(index + 3)], as: UTF8.self), radix: 8)
            {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
