import Foundation
import Testing

@testable import Config
@testable import Timelines

/// The rate limit on reloads a provider asks for itself, counted from when the last reload was due (docs/daemon.md,
/// "Rate limit"): no timing of the loop or the provider lets a provider that keeps asking for a reload soon reload more
/// than about once a second, and the anchor in the past or the future never holds a widget's samples off their
/// boundaries.
@Suite("engine: the reload rate limit")
struct EngineRateLimitTests {
    let t0 = at("2026-06-01T12:00:00+00:00")

    /// A provider asking for a reload a millisecond after each answer, forever, with the loop waking `late` after each
    /// deadline and the provider answering `callTime` after each start: after the first reload (start-up's, whose asked
    /// date is kept), no two start sooner than a second apart, whatever the two delays.
    @Test(arguments: [(0.0, 0.0), (0.003, 0.0), (0.003, 0.05), (0.2, 0.7), (0.9, 0.9), (0.0, 1.5)])
    func aProviderAskingForAReloadAMillisecondAfterEachAnswerStaysAtOneASecond(late: Double, callTime: Double) {
        var harness = EngineHarness([instance("a")], at: t0)
        harness.simulate(until: t0.addingTimeInterval(60), late: late, callTime: callTime) { _, now in
            .success(Timeline(entries: entries(now, ["x"], every: 1), policy: .after(now.addingTimeInterval(0.001))))
        }
        let starts = harness.reloads(of: "a")
        let gaps = zip(starts.dropFirst(2), starts.dropFirst()).map { $0.timeIntervalSince($1) }
        #expect(gaps.allSatisfy { $0 >= 1 - 1e-9 }, "gaps \(gaps)")
        #expect(starts.count <= 62)
        // And it is reloaded as often as it asks within that: once per second, or per call and wake when they are
        // longer.
        #expect(starts.count >= Int(60 / max(1, late + callTime)) - 1)
    }

    /// A reload the schedule started was due at its fire time: an answer asking for a reload very soon after it is held
    /// a second after that time, as one after a policy's reload is (the schedule starts no series of quick reloads).
    @Test func aReloadTheScheduleStartedCountsFromItsFireTime() {
        var harness = EngineHarness([instance("a", schedule: "* * * * *", zone: "UTC")], at: t0.addingTimeInterval(55))
        harness.run(until: t0.addingTimeInterval(63.5)) { _, now in
            .success(Timeline(entries: entries(now, ["x"], every: 1), policy: .after(now.addingTimeInterval(0.1))))
        }
        let starts = harness.reloads(of: "a").map { ($0.timeIntervalSince(t0) * 10).rounded() / 10 }
        // Start-up at :55 (its asked date kept), then a second apart; the schedule at 12:01:00, then a second after it.
        #expect(starts == [55, 55.1, 56.1, 57.1, 58.1, 59.1, 60, 61, 62, 63])
    }

    /// After failures, the retry that succeeds is the anchor: an answer asking for a reload soon is held a second after
    /// the retry was due, and not once more at once.
    @Test func aSuccessAfterAFailureCountsFromWhenTheRetryWasDue() {
        var harness = EngineHarness([instance("a")], at: t0)
        var calls = 0
        harness.simulate(until: t0.addingTimeInterval(8), late: 0.003, callTime: 0.05) { _, now in
            calls += 1
            if calls <= 2 { return .failure(ProviderFailure("down")) }
            return .success(
                Timeline(entries: entries(now, ["x"], every: 1), policy: .after(now.addingTimeInterval(0.001))))
        }
        let starts = harness.reloads(of: "a").map { ($0.timeIntervalSince(t0) * 1000).rounded() / 1000 }
        // Failures at 0 and at the retry due at 1.05 (1 s after the first failure's answer); the second retry is due
        // 2 s after its failure, at 3.103, and succeeds; from there a second after each due time.
        #expect(starts == [0, 1.053, 3.106, 4.106, 5.106, 6.106, 7.106])
    }

    /// A widget sampled every second whose sample once takes two and a half seconds: its answer asks for a boundary
    /// already past, one more sample starts at once, and the next is on a boundary again, a second apart from there.
    @Test func aSampleThatOutlastsItsSecondComesBackToTheBoundaries() {
        var harness = EngineHarness([instance("a")], at: t0)
        let slowStart = t0.addingTimeInterval(3)
        harness.simulate(
            until: t0.addingTimeInterval(9), late: 0,
            callTime: { start in start == slowStart ? 2.5 : 0.05 }
        ) { start, _ in
            .success(Timeline(entries: entries(start, ["x"], every: 1), policy: .after(nextSecond(after: start))))
        }
        let starts = harness.reloads(of: "a").map { ($0.timeIntervalSince(t0) * 1000).rounded() / 1000 }
        #expect(starts == [0, 1, 2, 3, 5.5, 6, 7, 8, 9])
    }

    /// The wall clock is stepped back an hour while the anchor is the boundary the last sample was due at, now an hour
    /// ahead: the widget reloads at once, and the boundary its answer asks for is kept, not held until an hour ahead.
    /// So too when the step comes while a sample is in flight.
    @Test(arguments: [false, true])
    func aStepBackPastTheAnchorKeepsTheSamplesOnTheSecond(duringACall: Bool) {
        var harness = EngineHarness([instance("a")], at: t0)
        let sample: (Date, Date) -> Result<Timeline, ProviderFailure> = { start, _ in
            .success(Timeline(entries: entries(start, ["x"], every: 1), policy: .after(nextSecond(after: start))))
        }
        // Samples at each second, 3 ms late; the one at 5.003 s is in flight until 5.053 s.
        harness.simulate(until: t0.addingTimeInterval(duringACall ? 5.02 : 5.5), late: 0.003, callTime: 0.05, sample)
        #expect(harness.pending.isEmpty != duringACall)
        let stepped = t0.addingTimeInterval(-3600 + 5.5)
        harness.now = stepped
        harness.record(harness.engine.clockChanged(now: stepped))
        if duringACall {
            // The call's answer comes after the step, asking for the boundary an hour ahead it was made for.
            harness.now = stepped.addingTimeInterval(0.033)
            harness.complete("a", sample(t0.addingTimeInterval(5.003), harness.now))
        }
        harness.simulate(until: stepped.addingTimeInterval(4), late: 0.003, callTime: 0.05, sample)
        let after = harness.reloads(of: "a").filter { $0 < t0 }.map {
            ($0.timeIntervalSince(stepped) * 1000).rounded() / 1000
        }
        // At once (after the call in flight), then at each boundary, 3 ms late.
        #expect(after == [duringACall ? 0.033 : 0, 0.503, 1.503, 2.503, 3.503])
    }

    /// The machine slept an hour: its reload, due an hour ago, starts on the resume, and the provider asking for one a
    /// millisecond later gets at most that one more before the second's spacing holds again.
    @Test func aResumeLetsOneMoreReloadThroughNotASeries() {
        var harness = EngineHarness([instance("a")], at: t0)
        let soon: (Date, Date) -> Result<Timeline, ProviderFailure> = { _, now in
            .success(Timeline(entries: entries(now, ["x"], every: 1), policy: .after(now.addingTimeInterval(0.001))))
        }
        harness.simulate(until: t0.addingTimeInterval(3.5), late: 0, callTime: 0, soon)
        let resumed = t0.addingTimeInterval(3600)
        harness.now = resumed
        harness.record(harness.engine.clockChanged(now: resumed))
        harness.simulate(until: resumed.addingTimeInterval(10), late: 0, callTime: 0, soon)
        let starts = harness.reloads(of: "a").filter { $0 >= resumed }
        let gaps = zip(starts.dropFirst(2), starts.dropFirst()).map { $0.timeIntervalSince($1) }
        #expect(starts.first == resumed)
        #expect(gaps.allSatisfy { $0 >= 1 - 1e-9 }, "gaps \(gaps)")
        #expect(starts.count <= 11)
    }
}

/// The first whole second after `date`.
private func nextSecond(after date: Date) -> Date {
    Date(timeIntervalSinceReferenceDate: (date.timeIntervalSinceReferenceDate + 1).rounded(.down))
}

extension EngineHarness {
    /// Runs instance `a`'s loop to `end` as the daemon would: waking `late` after each deadline, and answering each
    /// reload `callTime` after it started with `provider(start, now)`.
    mutating func simulate(
        until end: Date, late: TimeInterval, callTime: TimeInterval,
        _ provider: (Date, Date) -> Result<Timeline, ProviderFailure>
    ) {
        simulate(until: end, late: late, callTime: { _ in callTime }, provider)
    }

    mutating func simulate(
        until end: Date, late: TimeInterval, callTime: (Date) -> TimeInterval,
        _ provider: (Date, Date) -> Result<Timeline, ProviderFailure>
    ) {
        while true {
            let start = pending["a"] != nil ? reloads(of: "a").last : nil
            let answerAt = start.map { $0.addingTimeInterval(callTime($0)) }
            let wakeAt = engine.nextDeadline().map { max(now, $0.addingTimeInterval(late)) }
            guard let next = [answerAt, wakeAt].compactMap({ $0 }).min(), next <= end else { break }
            now = max(now, next)
            if let start, let answerAt, answerAt <= next {
                complete("a", provider(start, now))
            } else {
                record(engine.advance(now: now))
            }
        }
        now = end
        record(engine.advance(now: now))
    }
}
