import Foundation
import Glibc
import Testing

@testable import SystemKinds

/// The system's /proc and /sys files stay open between reads (`KeptFiles`): each read must still see the current text,
/// a file that is not the system's must be opened afresh, and a kept file that went must not stay kept.
@Suite("kept /proc and /sys files")
struct KeptFilesTests {
    @Test func aKeptProcFileReadsTheCurrentTextAtEachRead() throws {
        let kept = KeptFiles()
        let first = try #require(kept.bytes("/proc/uptime", keep: true, limit: 4096))
        #expect(kept.count == 1)
        // /proc/uptime moves on every 10 ms: read again from its start, the kept descriptor must see it move.
        var later = first
        let deadline = Date().addingTimeInterval(5)
        while later == first, Date() < deadline {
            usleep(5000)
            later = try #require(kept.bytes("/proc/uptime", keep: true, limit: 4096))
        }
        #expect(later != first)
        #expect(kept.count == 1)
        let fields = String(decoding: later, as: UTF8.self).split(separator: " ")
        #expect(fields.count == 2 && Double(fields[0]) != nil, "\(fields)")
    }

    @Test func aFileThatIsNotTheSystemsIsOpenedAtEachRead() throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        try tree.write("/proc/loadavg", "0.10 0.20 0.30 1/100 42\n")
        let kept = KeptFiles()
        #expect(
            kept.bytes(tree.root + "/proc/loadavg", keep: false, limit: 4096) == Array("0.10 0.20 0.30 1/100 42\n".utf8)
        )
        // Replaced by a rename, as a test's tree is written: a kept descriptor would read the old file.
        try tree.write("/proc/loadavg", "1.00 2.00 3.00 1/100 42\n")
        #expect(
            kept.bytes(tree.root + "/proc/loadavg", keep: false, limit: 4096) == Array("1.00 2.00 3.00 1/100 42\n".utf8)
        )
        #expect(kept.count == 0)
    }

    @Test func aKeptFileWhoseReadFailsIsLetGoAndOpenedAgain() throws {
        // Spawned and reaped with posix_spawn and waitpid: `Process.waitUntilExit` would hold a thread of the test
        // pool (two on two cores) for as long as Foundation takes to notice the exit.
        var pid: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("30"), nil]
        defer { arguments.forEach { free($0) } }
        try #require(posix_spawn(&pid, "/bin/sleep", nil, nil, arguments, environ) == 0)
        let path = "/proc/\(pid)/stat"
        let kept = KeptFiles()
        #expect(kept.bytes(path, keep: true, limit: 4096) != nil)
        #expect(kept.count == 1)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        // The process is gone: its kept file answers ESRCH, and its path names nothing any more.
        #expect(kept.bytes(path, keep: true, limit: 4096) == nil)
        #expect(kept.count == 0)
        // A path that can be read again is kept again.
        #expect(kept.bytes("/proc/self/stat", keep: true, limit: 4096) != nil)
        #expect(kept.count == 1)
    }

    @Test func aFileLongerThanOneReadIsReadWhole() throws {
        // /proc/self/maps of a Swift test process is tens of kilobytes: several reads from a kept descriptor.
        let kept = KeptFiles()
        let bytes = try #require(kept.bytes("/proc/self/maps", keep: true, limit: 1 << 20))
        #expect(bytes.count > 8192)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasSuffix("\n") && text.split(separator: "\n").allSatisfy { $0.contains("-") })
    }
}
