import Foundation
import Kind
import Testing

@testable import Daemon
@testable import Providers

/// When a supervised process (a persistent command, a plugin) is started again after it ended (`RestartBackoff`), on
/// a clock the test moves: no process and no sleeping. The processes themselves are `DrivenSupervisionTests`'.
@Suite("restart back-off: 1 s doubling to a minute, again from 1 s after a long run")
struct RestartBackoffTests {
    private static let start = Date(timeIntervalSince1970: 2_000_000_000)

    /// The waits of a process that ends `ranFor` seconds after each start, `count` times in a row.
    private static func waits(ranFor: TimeInterval, count: Int) -> [TimeInterval] {
        let clock = ManualClock(start)
        var backoff = RestartBackoff()
        var waits: [TimeInterval] = []
        for _ in 0..<count {
            let started = clock.now
            clock.advance(by: ranFor)
            let wait = backoff.ended(startedAt: started, now: clock.now)
            waits.append(wait)
            clock.advance(by: wait)
            backoff.lengthen()
        }
        return waits
    }

    @Test func aProcessThatEndsAtOnceWaitsTwiceAsLongEachTimeUpToAMinute() {
        #expect(Self.waits(ranFor: 0.01, count: 9) == [1, 2, 4, 8, 16, 32, 60, 60, 60])
    }

    @Test func aProcessThatRanLongerThanTheLongestWaitIsStartedAgainSoon() {
        #expect(Self.waits(ranFor: RestartBackoff.maximum + 1, count: 4) == [1, 1, 1, 1])
        // Up to the longest wait it still counts as crash-looping.
        #expect(Self.waits(ranFor: RestartBackoff.maximum, count: 3) == [1, 2, 4])
    }

    @Test func aLongRunAfterCrashesStartsTheDoublingOver() {
        let clock = ManualClock(Self.start)
        var backoff = RestartBackoff()
        for _ in 0..<5 {
            _ = backoff.ended(startedAt: clock.now, now: clock.now)
            backoff.lengthen()
        }
        #expect(backoff.delay == 32)
        let started = clock.now
        clock.advance(by: 3600)
        let wait = backoff.ended(startedAt: started, now: clock.now)
        #expect(wait == 1)
    }

    /// `interval: repeat`'s clean exit is no failure: the next failure waits the shortest time.
    @Test func aCleanEndStartsTheDoublingOver() {
        var backoff = RestartBackoff()
        for _ in 0..<4 { backoff.lengthen() }
        #expect(backoff.delay == 16)
        backoff.reset()
        #expect(backoff.delay == RestartBackoff.first)
    }
}

/// The daemon's record of what it supervises (`Supervisor`): one session per persistent widget, and an update of a
/// session stopped since never taken for its successor's.
@Suite("the supervisor's sessions")
struct SupervisorTests {
    private final class FakeSession: ProviderSession {
        func deliver(_ invocation: IntentInvocation) -> String? { nil }
        func stop() {}
    }

    private static func supervisor() -> Supervisor {
        Supervisor(
            plugins: DaemonPlugins(standard: KindRegistry([]), found: [], now: Date(timeIntervalSince1970: 0)),
            configuredPlugins: [])
    }

    @Test func aRunningSessionIsNotStartedAgain() throws {
        var supervisor = Self.supervisor()
        let starting = supervisor.generationToStart("a")
        let generation = try #require(starting)
        supervisor.started(FakeSession(), of: "a", generation: generation)
        let again = supervisor.generationToStart("a")
        #expect(again == nil, "a reload leaves the running command alone")
        let another = supervisor.generationToStart("b")
        #expect(another != nil, "another widget's is its own")
        #expect(supervisor.sessionNames == ["a"])
    }

    @Test func anUpdateOfAStoppedSessionIsNotTakenForItsSuccessors() throws {
        var supervisor = Self.supervisor()
        let starting = supervisor.generationToStart("a")
        let first = try #require(starting)
        let session = FakeSession()
        supervisor.started(session, of: "a", generation: first)
        #expect(supervisor.isCurrent("a", generation: first))
        let removed = supervisor.removeSession(of: "a")
        #expect(removed === session)
        #expect(!supervisor.isCurrent("a", generation: first), "stopped: its late updates are dropped")
        #expect(supervisor.session(of: "a") == nil)
        let restarting = supervisor.generationToStart("a")
        let second = try #require(restarting)
        #expect(second != first)
        supervisor.started(FakeSession(), of: "a", generation: second)
        #expect(!supervisor.isCurrent("a", generation: first))
        #expect(supervisor.isCurrent("a", generation: second))
    }

    /// A start that failed spends its generation: nothing of it can be current.
    @Test func aFailedStartLeavesNothingRunning() throws {
        var supervisor = Self.supervisor()
        let starting = supervisor.generationToStart("a")
        let spent = try #require(starting)
        #expect(!supervisor.isCurrent("a", generation: spent))
        let retrying = supervisor.generationToStart("a")
        let next = try #require(retrying, "the next reload tries again")
        #expect(next != spent)
    }
}
