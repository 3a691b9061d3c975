import Glibc

/// A condition variable with a deadline (`pthread_cond_timedwait`), for the one caller that waits a bounded time
/// for the sound server's first answer (a `preview`, which starts no session).
final class TimedSignal: @unchecked Sendable {
    // @unchecked: the pthread objects are the synchronization; allocated once, they never move.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Wakes every waiter, which then checks its condition again.
    func broadcast() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Returns once `done()` is true or `timeout` has passed. `done` is checked with the lock held, so a broadcast
    /// between the check and the wait is not missed.
    func wait(upTo timeout: Duration, until done: () -> Bool) {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let (seconds, attoseconds) = timeout.components
        deadline.tv_sec += Int(seconds)
        deadline.tv_nsec += Int(attoseconds / 1_000_000_000)
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !done() {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return }
        }
    }
}
