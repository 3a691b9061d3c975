import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon

/// The runtime directory's FIFO and lock, deleted or taken under the daemon: made again once deletions have stopped
/// for `DirectoryGuard.repairDelay`, or given up to a daemon that took the lock meanwhile. The whole daemon in this
/// process, on a clock the test moves (`DrivenDaemon`); a request is written to its FIFO as the CLI writes one.
@Suite("the daemon on a driven clock: the runtime directory repaired", .waitsOnThreadsOfItsOwn)
struct DrivenRuntimeRepairTests {
    static let config = "widgets:\n  quote:\n    kind: quotes\n    output: [plain, i3blocks]\n"

    private static func inode(_ path: String) -> ino_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_ino : nil
    }

    @Test func aDeletedFIFOIsMadeAgainOnceTheDelayHasPassed() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        let fifo = driven.runtime + "/control"
        let old = try #require(Self.inode(fifo))
        #expect(unlink(fifo) == 0)
        driven.settle()
        driven.advance(by: DirectoryGuard.repairDelay / 2)
        #expect(Self.inode(fifo) == nil, "not while deletions may go on")
        driven.advance(by: DirectoryGuard.repairDelay)
        let new = try #require(Self.inode(fifo), "\(driven.log)")
        #expect(new != old)
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO && info.st_mode & 0o777 == 0o600)
        #expect(driven.reloadIsAcknowledged("quote", token: "after-repair"))
    }

    @Test func aRemovedRuntimeDirectoryComesBackAndASecondDaemonIsStillRefused() throws {
        let first = try DrivenDaemon(config: Self.config)
        #expect(first.turns(until: "the first timeline") { first.hasTimeline("quote") })
        try FileManager.default.removeItem(atPath: first.runtime)
        first.settle()
        first.advance(by: DirectoryGuard.repairDelay)
        #expect(access(first.runtime + "/control", F_OK) == 0 && access(first.runtime + "/lock", F_OK) == 0)
        #expect(first.reloadIsAcknowledged("quote", token: "after-rm"))

        #expect {
            _ = try DrivenDaemon(config: Self.config, reusing: first)
        } throws: { error in
            "\(error)".contains("already running (pid \(getpid()))")
        }
        first.stop()
        #expect(access(first.runtime + "/control", F_OK) != 0 && access(first.runtime + "/lock", F_OK) != 0)
    }

    @Test func aDaemonWhoseLockWasTakenWhileItsDirectoryWasGoneStopsAndLeavesTheNewLock() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        // Another daemon (this test) makes the directory again and takes the lock before the first repairs it.
        try FileManager.default.removeItem(atPath: driven.runtime)
        #expect(mkdir(driven.runtime, 0o700) == 0)
        let lock = open(driven.runtime + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(lock) }
        #expect(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
        driven.settle()
        driven.advance(by: DirectoryGuard.repairDelay)
        #expect(driven.daemon.stopping, "\(driven.log)")
        #expect(driven.log.contains("leaving it to that one and stopping"), "\(driven.log)")
        driven.stop()
        #expect(access(driven.runtime + "/lock", F_OK) == 0, "the newcomer's lock stays")
    }
}
