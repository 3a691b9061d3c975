import Foundation
import Glibc
import TestSupport
import Testing

/// A tmpfs of 256 KiB for a test to fill or make read-only under a daemon; only root may mount one.
struct TinyTmpfs {
    let path: String

    /// Whether this machine lets the tests mount a tmpfs (root, with the capability to mount).
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let probe = NSTemporaryDirectory() + "widgetd-tmpfs-probe-\(getpid())"
        guard mkdir(probe, 0o700) == 0 else { return false }
        defer { rmdir(probe) }
        guard shell("mount -t tmpfs -o size=64k tmpfs '\(probe)'") == 0 else { return false }
        return shell("umount '\(probe)'") == 0
    }()

    /// Mounts one at `path`, a directory it makes.
    init(at path: String) throws {
        self.path = path
        guard mkdir(path, 0o700) == 0, Self.shell("mount -t tmpfs -o size=256k,mode=0700 tmpfs '\(path)'") == 0 else {
            throw POSIXError(.EPERM)
        }
    }

    func unmount() { _ = Self.shell("umount -l '\(path)'") }

    func remount(readOnly: Bool) -> Bool {
        Self.shell("mount -o remount,\(readOnly ? "ro" : "rw") '\(path)'") == 0
    }

    /// Writes to `name` in it until it is full.
    func fill(_ name: String) throws {
        let descriptor = open(path + "/" + name, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0x61, count: 4096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        #expect(errno == ENOSPC)
    }

    /// Runs `command` with /bin/sh; its exit status.
    private static func shell(_ command: String) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        guard process.waitForExit() else { return -1 }
        return process.terminationStatus
    }
}
