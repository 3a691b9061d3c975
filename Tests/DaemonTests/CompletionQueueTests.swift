import Synchronization
import Testing
import Timelines

@testable import Daemon

/// What provider threads hand the loop (`CompletionQueue`): a result wakes the loop only while it sleeps, and one that
/// came while it was busy keeps it from sleeping until it is taken in.
@Suite("the completion queue: a result wakes the loop only while it sleeps")
struct CompletionQueueTests {
    private final class WakeCount: Sendable {
        let value = Atomic<Int>(0)
    }

    /// A queue whose wake-ups are counted.
    private final class CountedQueue: Sendable {
        private let wakes = WakeCount()
        let queue: CompletionQueue

        init() {
            let wakes = self.wakes
            queue = CompletionQueue(wake: { wakes.value.add(1, ordering: .sequentiallyConsistent) })
        }

        var wakeCount: Int { wakes.value.load(ordering: .sequentiallyConsistent) }

        func postAnswer(of instance: String) {
            queue.post(
                ProviderCompletion(
                    instance: instance, token: 1, result: .success(Timeline(entries: [], policy: .never))))
        }
    }

    @Test func aQueueNoLoopDrivesWakesAtEveryPost() {
        let counted = CountedQueue()
        counted.postAnswer(of: "a")
        counted.postAnswer(of: "b")
        #expect(counted.wakeCount == 2)
        #expect(counted.queue.drain().count == 2)
    }

    @Test func aResultPostedWhileTheLoopIsAwakeWaitsWithoutAWakeUpAndKeepsItFromSleeping() {
        let counted = CountedQueue()
        counted.queue.loopAwake()
        counted.postAnswer(of: "disk")
        #expect(counted.wakeCount == 0, "the loop is busy: it takes the result in before it sleeps")
        #expect(!counted.queue.loopMaySleep(), "a result waits: the loop must not sleep on it")
        #expect(counted.queue.drain().count == 1)
        #expect(counted.queue.loopMaySleep())
    }

    @Test func onceTheLoopMaySleepEveryPostWakesItUntilItIsAwakeAgain() {
        let counted = CountedQueue()
        counted.queue.loopAwake()
        #expect(counted.queue.loopMaySleep())
        counted.postAnswer(of: "disk")
        counted.postAnswer(of: "cpu")
        #expect(counted.wakeCount == 2)
        counted.queue.loopAwake()
        _ = counted.queue.drain()
        counted.postAnswer(of: "disk")
        #expect(counted.wakeCount == 2)
    }

    @Test func answersPostedFromTheLoopNeverWakeIt() {
        let counted = CountedQueue()
        counted.queue.postFromLoop(
            ProviderCompletion(instance: "cpu", token: 1, result: .success(Timeline(entries: [], policy: .never))))
        #expect(counted.wakeCount == 0)
        #expect(counted.queue.hasPending)
    }
}
