import Basics
import FoundationEssentials
import Glibc
import Synchronization

/// A few threads of our own that run provider calls, so the daemon never touches libdispatch's global
/// queues.
///
/// On Linux, the first job on Swift's default executor starts libdispatch's worker pool, and with it a
/// monitor timer that wakes a thread every second for the life of the process. A daemon that promises to
/// sleep until its next deadline cannot afford that, so provider tasks prefer this executor: its threads
/// block on a condition variable when there is nothing to run, and wake for nothing else.
final class ProviderExecutor: TaskExecutor, @unchecked Sendable {
    /// Guards `jobs` and `finishing`; the threads sleep on it while there are no jobs.
    private let condition = Condition()
    /// Jobs waiting for a thread. `UnownedJob` is only handed between threads here, under `condition`'s lock.
    private var jobs: [UnownedJob] = []
    /// How many threads the system gave; with none at all, jobs run on the thread that enqueues them.
    private var startedThreads = 0
    /// Set by `finish()`: the threads end once the jobs are run, and later jobs run on the thread that enqueues them.
    private var finishing = false

    init(threads: Int, name: String = "widgetd-provider") {
        for index in 0..<max(1, threads) {
            // A thread the system refuses (its thread limit) leaves the pool smaller, not the daemon stopped. Each
            // thread holds the executor until it ends, so the condition it sleeps on is never freed under it.
            if (try? DetachedThread.start(name: "\(name)-\(index)", { self.work() })) != nil {
                startedThreads += 1
            }
        }
    }

    /// Ends the threads once the jobs waiting are run (the daemon's stop): a stopped daemon in a process that goes on
    /// (a test's) then holds no thread, and the executor is freed with the last reference to it.
    func finish() {
        condition.lock()
        finishing = true
        condition.unlock()
        condition.broadcast()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        guard startedThreads > 0, !finishing else {
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            return
        }
        jobs.append(job)
        condition.unlock()
        // After the unlock: a thread woken while the lock is still held would wake only to wait for it.
        condition.signal()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty, !finishing { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
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
        do {
            try DetachedThread.start(name: "widgetd-command") { [self] in work(first: job) }
        } catch {
            // No new thread to be had (the system's limit): the job waits for a running one, or runs here if none runs.
            let runsHere = state.withLock { state in
                if state.threads > 1 {
                    state.threads -= 1
                    state.waiting.insert(job, at: 0)
                    return false
                }
                return true
            }
            if runsHere { work(first: job) }
        }
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
