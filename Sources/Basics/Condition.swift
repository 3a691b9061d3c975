import Glibc

/// A mutex with a condition variable (`pthread_mutex_t`, `pthread_cond_t`): Foundation's `NSCondition`, for code that
/// waits for a state other threads change under the same lock, without Foundation (which would bring ICU into the
/// daemon).
public final class Condition: @unchecked Sendable {
    // @unchecked: the pthread objects are the synchronization; allocated once, they never move.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Releases the lock, sleeps until signalled (or woken spuriously: check the state again), and takes it back.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes one waiting thread.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
