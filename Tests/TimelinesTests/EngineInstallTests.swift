import Foundation
import Testing

@testable import Config
@testable import Timelines

/// `Engine.install` takes a timeline as a reload's answer does (`Engine.completed`): both go through one reset, so a
/// pushed timeline (an intent's, a persistent command's) leaves the instance exactly as a reload answering it would.
@Suite("engine: an installed timeline is a reload's answer")
struct EngineInstallTests {
    let t0 = at("2026-06-01T12:00:00+00:00")

    /// Two engines whose provider failed once, so each has a failure and a retry; at the retry, one answers the reload
    /// with `timeline`, the other has it installed.
    func answeredAndInstalled(_ timeline: Timeline) -> (answered: EngineHarness, installed: EngineHarness) {
        var answered = EngineHarness([instance("a")], at: t0)
        answered.complete("a", .failure(ProviderFailure("down")))
        answered.now = t0.addingTimeInterval(1)
        answered.record(answered.engine.advance(now: answered.now))
        var installed = answered
        answered.complete("a", .success(timeline))
        installed.record(installed.engine.install(timeline, for: "a", now: installed.now))
        return (answered, installed)
    }

    @Test(arguments: [
        ReloadPolicy.never, .atEnd, .after(at("2026-06-01T12:05:00+00:00")), .after(at("2026-06-01T11:00:00+00:00")),
    ])
    func bothLeaveTheSameStateAndActions(_ policy: ReloadPolicy) throws {
        let timeline = Timeline(entries: entries(t0, ["x", "y", "z"], every: 60), policy: policy)
        var (answered, installed) = answeredAndInstalled(timeline)
        #expect(answered.log.map(\.1) == installed.log.map(\.1))
        let now = answered.now
        let answeredStatus = try #require(answered.engine.status(of: "a", now: now))
        let installedStatus = try #require(installed.engine.status(of: "a", now: now))
        #expect(installedStatus.lastError == nil)
        #expect(answeredStatus.lastError == installedStatus.lastError)
        #expect(answeredStatus.content == installedStatus.content)
        #expect(answeredStatus.policy == installedStatus.policy)
        #expect(answeredStatus.nextReload == installedStatus.nextReload)
        #expect(answeredStatus.isReloading == installedStatus.isReloading)
        #expect(answered.engine.nextDeadline() == installed.engine.nextDeadline())
        // And so they go on: the same swaps and the same next reload.
        let later = t0.addingTimeInterval(600)
        answered.run(until: later) { _, _ in .success(timeline) }
        installed.run(until: later) { _, _ in .success(timeline) }
        #expect(answered.log.map(\.0) == installed.log.map(\.0))
        #expect(answered.log.map(\.1) == installed.log.map(\.1))
    }

    @Test func theReloadItSupersedesIsIgnored() throws {
        var harness = EngineHarness([instance("a")], at: t0)
        let superseded = try #require(harness.pending["a"])
        let pushed = Timeline(entries: entries(t0, ["pushed"], every: 1), policy: .never)
        harness.record(harness.engine.install(pushed, for: "a", now: t0))
        #expect(!harness.engine.isAwaiting(instance: "a", token: superseded))
        let late = harness.engine.completed(
            instance: "a", token: superseded, result: .failure(ProviderFailure("late")), now: t0)
        #expect(late.isEmpty)
        #expect(harness.engine.content(of: "a", at: t0)?.text == "pushed")
        #expect(harness.engine.timeline(of: "a")?.failure == nil)
    }
}
