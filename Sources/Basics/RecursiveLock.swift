import Glibc

/// A lock the thread holding it may take again (a `PTHREAD_MUTEX_RECURSIVE` mutex), for the SQLite connection: a
/// transaction body runs with the lock held and makes further calls on the same thread.
///
/// Everything else uses `Synchronization.Mutex`, which is not recursive; this replaces Foundation's `NSRecursiveLock`
/// (issue 15: no ICU in the daemon).
public final class RecursiveLock: @unchecked Sendable {
    // @unchecked: the pthread mutex is the synchronization; it is allocated once and never moves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held (`pthread_mutex_lock`, `pthread_mutex_unlock`).
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
