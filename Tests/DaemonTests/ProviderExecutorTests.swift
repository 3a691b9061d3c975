import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon

/// The provider threads (`ProviderExecutor`) live until the daemon's stop, then end once idle, so that a process that
/// goes on after a daemon (the tests') keeps neither the threads nor the executor.
@Suite("provider executor", .waitsOnThreadsOfItsOwn)
struct ProviderExecutorTests {
    /// The names of this process's threads (`/proc/self/task/*/comm`).
    private static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? procFile("/proc/self/task/\($0)/comm").trimmingCharacters(in: .newlines) }
    }

    /// Whether `condition` holds within `seconds`, looked at every millisecond (a thread's end raises no event).
    private static func within(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }

    /// The name of the thread a job on `executor` runs on.
    private static func threadName(on executor: ProviderExecutor) async -> String {
        await Task(executorPreference: executor) { () -> String in
            (try? procFile("/proc/thread-self/comm").trimmingCharacters(in: .newlines)) ?? ""
        }.value
    }

    @Test func finishEndsItsThreadsFreesItAndLaterJobsStillRun() async throws {
        // A name of its own (at most 15 bytes), so tests beside this one cannot be counted.
        let name = "pe-\(UInt32.random(in: 0..<1_000_000))"
        var executor: ProviderExecutor? = ProviderExecutor(threads: 2, name: name)
        #expect(await Self.threadName(on: executor!).hasPrefix(name))
        #expect(Self.threadNames().filter { $0.hasPrefix(name) }.count == 2)

        executor!.finish()
        #expect(Self.within(seconds: 10) { !Self.threadNames().contains { $0.hasPrefix(name) } }, "its threads ended")
        // A job after the stop (an answer still on its way) runs on the thread that hands it over.
        #expect(await !Self.threadName(on: executor!).hasPrefix(name))

        weak let released = executor
        executor = nil
        #expect(released == nil, "nothing holds the executor once its threads ended")
    }
}
