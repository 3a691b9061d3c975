import Foundation
import Testing

@testable import Config
@testable import Timelines

/// `Engine.unansweredInstances`, which the daemon waits on before it trims start-up's working set.
@Suite("engine: instances still waiting for their first answer")
struct EngineAnswerCountTests {
    let t0 = at("2026-06-01T12:00:00+00:00")

    func timeline(_ text: String) -> Timeline {
        Timeline(entries: [TimelineEntry(date: t0, content: EntryContent(text: text))], policy: .never)
    }

    @Test func aTimelineAFailureATimeoutAndAnInstalledTimelineEachAnswerOnce() {
        var harness = EngineHarness([instance("a"), instance("b"), instance("c"), instance("d")], at: t0)
        #expect(harness.engine.unansweredInstances == 4)
        harness.complete("a", .success(timeline("A")))
        #expect(harness.engine.unansweredInstances == 3)
        harness.complete("b", .failure(ProviderFailure("no network")))
        #expect(harness.engine.unansweredInstances == 2)
        harness.record(harness.engine.install(timeline("D"), for: "d", now: harness.now))
        #expect(harness.engine.unansweredInstances == 1)
        // c never answers: its call times out, which is its answer (a failure).
        harness.now = t0.addingTimeInterval(EngineSettings().providerTimeout + 1)
        harness.record(harness.engine.advance(now: harness.now))
        #expect(harness.engine.timeline(of: "c")?.failure?.contains("timed out") == true)
        #expect(harness.engine.unansweredInstances == 0)
    }

    @Test func laterAnswersAndUnknownNamesCountNothing() {
        var harness = EngineHarness([instance("a")], at: t0)
        harness.complete("a", .failure(ProviderFailure("down")))
        #expect(harness.engine.unansweredInstances == 0)
        // Its retry, a second or so later, answers again.
        harness.now = t0.addingTimeInterval(5)
        harness.record(harness.engine.advance(now: harness.now))
        harness.complete("a", .success(timeline("A")))
        harness.record(harness.engine.providerFailed(instance: "a", reason: "exited", now: harness.now))
        harness.record(harness.engine.install(timeline("X"), for: "nobody", now: harness.now))
        #expect(harness.engine.unansweredInstances == 0)
    }

    @Test func aStoppedPersistentProviderHasAnswered() {
        var harness = EngineHarness([instance("a")], at: t0)
        harness.record(harness.engine.providerFailed(instance: "a", reason: "exited with 1", now: harness.now))
        #expect(harness.engine.unansweredInstances == 0)
    }

    @Test func aNewConfigurationCountsOnlyTheInstancesItStartsAgain() {
        var harness = EngineHarness([instance("kept"), instance("changed"), instance("waiting")], at: t0)
        harness.complete("kept", .success(timeline("K")))
        harness.complete("changed", .success(timeline("C")))
        #expect(harness.engine.unansweredInstances == 1)
        let (_, actions) = harness.engine.reconfigure(
            [instance("kept"), instance("changed", kind: "other"), instance("waiting"), instance("new")],
            placeholders: [:], now: harness.now)
        harness.record(actions)
        // "changed" and "new" start from their placeholders; "waiting" still has no answer; "kept" keeps its own.
        #expect(harness.engine.unansweredInstances == 3)
    }
}

/// A config re-read that ends after an entry's date (a second boundary passed while a large widgets.yaml was read):
/// a kept widget shows that entry at once, instead of waiting for the one after. Its wake was computed from the
/// re-read's `now`, past the change, and per-second clocks lost a second at every SIGHUP sent just before one.
@Suite("engine: a re-read across an entry's date")
struct EngineReconfigureAcrossAnEntryTests {
    let t0 = at("2026-06-01T12:00:00+00:00")

    @Test func theEntryDueDuringTheReReadIsShownAtOnce() {
        var harness = EngineHarness([instance("clock")], at: t0)
        let entries = (0..<5).map { second in
            TimelineEntry(date: t0.addingTimeInterval(Double(second)), content: EntryContent(text: "s\(second)"))
        }
        harness.complete("clock", .success(Timeline(entries: entries, policy: .atEnd)))
        // Shown up to s1; the re-read starts just before s2's date and ends just after it.
        harness.now = t0.addingTimeInterval(1)
        harness.record(harness.engine.advance(now: harness.now))
        harness.now = t0.addingTimeInterval(2.03)
        let (_, actions) = harness.engine.reconfigure([instance("clock")], placeholders: [:], now: harness.now)
        #expect(actions.contains(.show(instance: "clock", content: EntryContent(text: "s2"))), "\(actions)")
    }
}
