import Foundation
import Synchronization

/// A few threads of our own that run provider calls, so the daemon never touches libdispatch's global
/// queues.
///
/// On Linux, the first job on Swift's default executor starts libdispatch's worker pool, and with it a
/// monitor timer that wakes a thread every second for the life of the process. A daemon that promises to
/// sleep until its next deadline cannot afford that, so provider tasks prefer this executor: its threads
/// block on a condition variable when there is nothing to run, and wake for nothing else.
final class ProviderExecutor: TaskExecutor, @unchecked Sendable {
    /// Jobs waiting for a thread. `UnownedJob` is only handed between threads here, under the lock.
    private let queue = Mutex<[UnownedJob]>([])
    private let condition = ConditionVariable()

    init(threads: Int, name: String = "widgetd-provider") {
        for index in 0..<max(1, threads) {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { $0.append(job) }
        condition.signal()
    }

    private func work() {
        while true {
            let job = condition.wait { queue.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs jobs on threads started as they are needed, up to `maximumThreads`, for providers and intents that block
/// their thread for as long as a command runs (`exec`): a few hanging scripts must not hold up the clock, the store
/// widgets or a click. Past the limit, jobs wait in order for a thread to finish; a thread with nothing left to run
/// ends, so an idle daemon keeps none.
final class CommandExecutor: TaskExecutor, @unchecked Sendable {
    private struct State {
        var waiting: [UnownedJob] = []
        var threads = 0
    }

    let maximumThreads: Int
    private let state = Mutex(State())

    init(maximumThreads: Int) {
        self.maximumThreads = max(1, maximumThreads)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let startsThread = state.withLock { state in
            guard state.threads < maximumThreads else {
                state.waiting.append(job)
                return false
            }
            state.threads += 1
            return true
        }
        guard startsThread else { return }
        let thread = Thread { [self] in work(first: job) }
        thread.name = "widgetd-command"
        thread.start()
    }

    private func work(first: UnownedJob) {
        var next: UnownedJob? = first
        while let job = next {
            job.runSynchronously(on: asUnownedTaskExecutor())
            next = state.withLock { state in
                guard !state.waiting.isEmpty else {
                    state.threads -= 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
        }
    }
}

/// A pthread condition variable with its mutex: `wait` blocks until `take` gives something.
final class ConditionVariable: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    func signal() {
        pthread_mutex_lock(&mutex)
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
    }

    /// Calls `take` under the mutex until it returns a value, sleeping between signals.
    func wait<T>(_ take: () -> T?) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while true {
            if let value = take() { return value }
            pthread_cond_wait(&condition, &mutex)
        }
    }
}
