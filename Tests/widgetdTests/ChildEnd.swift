import Dispatch
import Foundation
import Synchronization

/// The end of a child this process started with `posix_spawn`, seen when it happens: a thread of its own blocks in
/// `waitpid` for that pid alone and keeps the wait status, so a test waits on a semaphore with a deadline instead of
/// polling `waitpid` between sleeps. Made right after the spawn, and the only reaper of that child.
final class ChildEnd: Sendable {
    private let status = Mutex<Int32?>(nil)
    private let ended = DispatchSemaphore(value: 0)

    init(_ pid: pid_t) {
        Thread.detachNewThread { [self] in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            status.withLock { $0 = raw }
            ended.signal()
        }
    }

    /// The raw wait status once the child has ended and been reaped, else nil; never blocks.
    var exitStatus: Int32? { status.withLock { $0 } }

    /// Blocks until the child has ended or `timeout` has passed, for callers that cannot suspend (a `deinit`, a
    /// `defer`): the raw wait status, or nil when it still runs.
    func wait(timeout: Duration) -> Int32? {
        let (seconds, attoseconds) = timeout.components
        let deadline = DispatchTime.now() + Double(seconds) + Double(attoseconds) / 1e18
        guard ended.wait(timeout: deadline) == .success else { return nil }
        ended.signal()  // for the next caller
        return exitStatus
    }
}
