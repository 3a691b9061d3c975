import Foundation
import Kind
import SystemKinds
import Testing

/// Which paths the disk kind reads on the daemon's loop: those on a local file system, by mountinfo.
@Suite("the mount table")
struct MountTableTests {
    static let mountinfo = """
        22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
        23 22 0:21 / /proc rw,nosuid shared:2 - proc proc rw
        30 22 0:40 / /home/ann/My\\040Files rw shared:9 - btrfs /dev/sdb1 rw
        31 22 0:41 / /mnt/share rw,relatime shared:10 master:3 - nfs4 server:/export rw,vers=4.2
        32 31 0:42 / /mnt/share/local rw shared:11 - tmpfs tmpfs rw
        33 22 0:43 / /media/box rw,nosuid - fuse.sshfs box: rw
        34 22 0:44 / /media/box rw - ext4 /dev/sdc1 rw
        garbage line
        """

    @Test func theLongestMountPointHoldingAPathDecidesAndTheLastOfEqualsHidesTheOthers() {
        let table = MountTable(mountinfo: Self.mountinfo)
        #expect(table.mounts.count == 7, "the garbage line is skipped")
        #expect(table.mount(holding: "/")?.type == "ext4")
        #expect(table.mount(holding: "/var/log")?.type == "ext4")
        #expect(table.mount(holding: "/home/ann/My Files/x")?.type == "btrfs", "\\040 is a space")
        #expect(table.mount(holding: "/mnt/share")?.type == "nfs4")
        #expect(table.mount(holding: "/mnt/shared")?.type == "ext4", "a mount point is a whole directory name")
        #expect(table.mount(holding: "/mnt/share/local/a")?.type == "tmpfs")
        #expect(table.mount(holding: "/media/box")?.type == "ext4", "mounted over the sshfs")
        #expect(table.isLocal("/") && table.isLocal("/mnt/share/local") && !table.isLocal("/mnt/share/x"))
        #expect(!MountTable(mountinfo: "").isLocal("/"), "no table: not known to be local")
    }

    /// A path on a local file system is answered at once (on the daemon's loop); one on nfs, or with no mount table to
    /// tell, goes to a provider thread.
    @Test func theDiskKindAnswersAtOnceOnlyForALocalFileSystem() throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        try FileManager.default.createDirectory(atPath: tree.root + "/mnt/share", withIntermediateDirectories: true)
        let unknown = DiskKind(files: tree.files)
        #expect(try unknown.immediateTimeline(for: configuration(unknown), in: context()) == nil)
        try tree.write("/proc/self/mountinfo", Self.mountinfo)
        let kind = DiskKind(files: tree.files)
        let local = try kind.immediateTimeline(for: configuration(kind), in: context())
        #expect(local?.entries.first?.content.text.isEmpty == false)
        let network = try kind.immediateTimeline(
            for: configuration(kind, ["path": .string("/mnt/share")]), in: context())
        #expect(network == nil)
    }

    /// The real table: read once, then again only after a mount or an unmount (none happens here, so the same).
    @Test func theSystemsOwnTableHoldsTheRoot() {
        let watch = MountWatch(files: SystemFiles(root: ""))
        let table = watch.table()
        #expect(table?.mount(holding: "/") != nil)
        #expect(watch.table() == table)
    }
}
