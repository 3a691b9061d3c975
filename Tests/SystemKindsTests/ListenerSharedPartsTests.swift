import Glibc
import Testing

@testable import SystemKinds

/// What the process-wide listeners share: their subscriber table, and the pipe that wakes their thread.
@Suite("listeners' shared parts")
struct ListenerSharedPartsTests {
    @Test func anIDIsNeverGivenTwiceAndARemovedSubscriberDoesNotComeBack() {
        var subscribers = Subscribers<String>()
        let first = subscribers.add("a")
        let second = subscribers.add("b")
        subscribers.remove(first)
        let third = subscribers.add("c")
        #expect(Set([first, second, third]).count == 3)
        // The thread keeps a deadline for a subscriber that was cancelled meanwhile: it stays cancelled.
        subscribers[first] = "a again"
        #expect(subscribers[first] == nil)
        subscribers[second] = "b, later"
        #expect(subscribers.snapshot.sorted() == ["b, later", "c"])
        subscribers[third] = nil
        #expect(subscribers.snapshot == ["b, later"])
        subscribers.remove(second)
        #expect(subscribers.isEmpty)
    }

    @Test func theNearestDeadlineIsTheSmallestOfThoseAskedFor() {
        var subscribers = Subscribers<Int?>()
        #expect(subscribers.nearest { $0 } == nil)
        _ = subscribers.add(nil)
        #expect(subscribers.nearest { $0 } == nil)
        _ = subscribers.add(30)
        _ = subscribers.add(10)
        #expect(subscribers.nearest { $0 } == 10)
    }

    @Test func aWakeUpEndsOneWaitAndIsDrainedByIt() {
        let pipe = WakePipe()
        pipe.wake()
        pipe.wake()
        let clock = ContinuousClock()
        // Woken: returns at once although no limit is given, with no events of the (absent) descriptor.
        let woken = clock.measure { #expect(pipe.wait(for: -1, milliseconds: -1) == 0) }
        #expect(woken < .seconds(5))
        // Drained: the next wait lasts its whole limit.
        let waited = clock.measure { _ = pipe.wait(for: -1, milliseconds: 50) }
        #expect(waited >= .milliseconds(50))
    }
}
