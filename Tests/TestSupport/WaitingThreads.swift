import Foundation
import Testing

extension Trait where Self == WaitsOnThreadsOfItsOwn {
    /// The suite's tests block their thread while they wait (`WaitsOnThreadsOfItsOwn`).
    public static var waitsOnThreadsOfItsOwn: Self { WaitsOnThreadsOfItsOwn() }
}

/// Runs each test of a suite whose tests block their thread while they wait (a daemon's turn in `poll`, a deadline on
/// the wall clock) on `WaitingThreads.shared` instead of Swift Testing's pool.
///
/// That pool is only as wide as the machine has cores, two on CI, and the kernel sees no difference between its
/// thread computing and its thread blocked in `poll`: two tests waiting there left both cores idle while hundreds of
/// quick tests queued behind them. On threads of their own, the waiting tests take no core from the rest, and the
/// executor's width still bounds how many of them run their daemons at once.
public struct WaitsOnThreadsOfItsOwn: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// A scope for each test case, where the test's body runs; the suite's own scope needs none.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase != nil ? self : nil
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(WaitingThreads.shared) { try await function() }
    }
}

/// A task executor with a few threads of its own, for test bodies that block while they wait.
///
/// Its jobs run in the order they came, each on the first free thread: a job that blocks holds its thread and no
/// other, so at most `width` such tests wait at once while the rest of their jobs queue.
public final class WaitingThreads: TaskExecutor, @unchecked Sendable {
    /// Three threads, or `WIDGETD_TEST_WAITING_THREADS`. With these tests off the pool the run is bound by CPU, so
    /// more threads would not end it sooner; fewer keep the daemons these tests run from crowding each other's
    /// deadlines.
    public static let shared = WaitingThreads(
        width: ProcessInfo.processInfo.environment["WIDGETD_TEST_WAITING_THREADS"].flatMap { Int($0) } ?? 3)

    private let jobsChanged = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(width: Int) {
        for _ in 0..<max(1, width) {
            Thread { self.runJobs() }.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobsChanged.lock()
        jobs.append(job)
        jobsChanged.signal()
        jobsChanged.unlock()
    }

    /// A thread's life: the next job, run to its next suspension or its end, for as long as the process runs.
    private func runJobs() -> Never {
        while true {
            jobsChanged.lock()
            while jobs.isEmpty { jobsChanged.wait() }
            let job = jobs.removeFirst()
            jobsChanged.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
