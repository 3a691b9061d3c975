import Basics
import Foundation
import Synchronization
import Testing

/// The pthread wrappers that replace Foundation's Thread and NSCondition (issue 15).
@Suite("threads and the condition")
struct ThreadAndLockTests {
    /// Polls `done` every millisecond for at most 10 s; false, with a recorded issue naming `what`, if it never holds.
    @discardableResult
    private func wait(for what: String, _ done: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !done() {
            if Date() > deadline {
                Issue.record("waited 10 s for \(what)")
                return false
            }
            usleep(1_000)
        }
        return true
    }

    @Test func aDetachedThreadRunsItsBodyUnderItsName() throws {
        let name = Mutex<String?>(nil)
        try DetachedThread.start(name: "widgetd-test-thread-with-a-long-name") {
            // The kernel's name for the calling thread, as `ps -L` shows it.
            let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "unreadable"
            name.withLock { $0 = comm.trimmingCharacters(in: .newlines) }
        }
        wait(for: "the thread to run") { name.withLock { $0 != nil } }
        // Linux keeps 15 bytes of a thread's name.
        #expect(name.withLock { $0 } == "widgetd-test-th")
    }

    @Test func aBroadcastWakesAThreadWaitingOnTheCondition() throws {
        let condition = Condition()
        // Both under the condition's lock: `waiting` is set just before the waiter's first `wait()`, which is the only
        // way it lets the lock go, so once the broadcaster holds the lock and reads it true, the waiter is asleep in
        // `wait()` and only the broadcast can wake it.
        let waiting = Mutex(false)
        let ready = Mutex(false)
        let woke = Mutex(false)
        try DetachedThread.start(name: "waiter") {
            condition.lock()
            waiting.withLock { $0 = true }
            while !ready.withLock({ $0 }) { condition.wait() }
            condition.unlock()
            woke.withLock { $0 = true }
        }
        wait(for: "the thread to wait on the condition") {
            condition.lock()
            defer { condition.unlock() }
            guard waiting.withLock({ $0 }) else { return false }
            ready.withLock { $0 = true }
            condition.broadcast()
            return true
        }
        wait(for: "the waiting thread to wake") { woke.withLock { $0 } }
    }
}
