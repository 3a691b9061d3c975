import Foundation
import Testing
import TimeZones

@testable import Config
@testable import Timelines

/// Drives the pure engine with a clock the test controls.
struct EngineHarness {
    var engine: Engine<WidgetInstance>
    var now: Date
    /// Every action the engine asked for, with the instant it asked.
    var log: [(Date, EngineAction)] = []
    /// Reloads started and not yet completed, by instance.
    var pending: [String: UInt64] = [:]

    init(_ instances: [WidgetInstance], at now: Date, settings: EngineSettings = EngineSettings()) {
        self.now = now
        engine = Engine(
            instances: instances,
            placeholders: Dictionary(
                uniqueKeysWithValues: instances.map { ($0.name, EntryContent(text: "placeholder")) }),
            settings: settings, now: now)
        record(engine.advance(now: now))
    }

    mutating func record(_ actions: [EngineAction]) {
        for action in actions {
            log.append((now, action))
            if case .reload(let name, let token) = action { pending[name] = token }
        }
    }

    /// Completes the pending reload of `name` with `result`.
    mutating func complete(_ name: String, _ result: Result<Timeline, ProviderFailure>) {
        guard let token = pending.removeValue(forKey: name) else {
            Issue.record("no reload of \(name) is pending")
            return
        }
        record(engine.completed(instance: name, token: token, result: result, now: now))
    }

    /// Moves the clock to `date`, waking at every deadline on the way as the loop would, and answering
    /// each reload with `provider` at once.
    mutating func run(until date: Date, provider: (String, Date) -> Result<Timeline, ProviderFailure>) {
        for name in pending.keys.sorted() {
            complete(name, provider(name, now))
        }
        while let deadline = engine.nextDeadline(), deadline <= date {
            now = max(now, deadline)
            record(engine.advance(now: now))
            for name in pending.keys.sorted() {
                complete(name, provider(name, now))
            }
        }
        now = date
        record(engine.advance(now: now))
        for name in pending.keys.sorted() {
            complete(name, provider(name, now))
        }
    }

    func reloads(of name: String) -> [Date] {
        log.compactMap { date, action in
            if case .reload(name, _) = action { return date }
            return nil
        }
    }

    func shown(_ name: String) -> [String] {
        log.compactMap { _, action in
            if case .show(name, let content) = action { return content.text }
            return nil
        }
    }
}

func instance(_ name: String, kind: String = "sample", schedule: String? = nil, zone: String? = nil) -> WidgetInstance {
    WidgetInstance(
        name: name, kind: kind, family: .systemSmall, schedule: schedule.map { try! CronExpression(parsing: $0) },
        timeZone: zone.flatMap { try? Zone.load(identifier: $0) })
}

func at(_ iso: String) -> Date {
    ISO8601Text.parse(iso, defaultTimeZone: .utc)!
}

func entries(_ start: Date, _ texts: [String], every step: TimeInterval) -> [TimelineEntry] {
    texts.enumerated().map { offset, text in
        TimelineEntry(date: start.addingTimeInterval(step * Double(offset)), content: EntryContent(text: text))
    }
}

@Suite("engine with a controlled clock")
struct EngineTests {
    let t0 = at("2026-06-01T12:00:00+00:00")

    @Test func placeholdersPaintAtStartThenEveryInstanceReloads() {
        let harness = EngineHarness([instance("a"), instance("b")], at: t0)
        #expect(harness.shown("a") == ["placeholder"])
        #expect(harness.reloads(of: "a") == [t0])
        #expect(harness.reloads(of: "b") == [t0])
    }

    @Test func atEndSwapsEntriesAtTheirDatesAndReloadsAfterTheLast() {
        var harness = EngineHarness([instance("a")], at: t0)
        var calls = 0
        harness.run(until: t0.addingTimeInterval(200)) { _, now in
            calls += 1
            return .success(
                Timeline(entries: entries(now, ["\(calls).0", "\(calls).1", "\(calls).2"], every: 60), policy: .atEnd))
        }
        #expect(harness.shown("a") == ["placeholder", "1.0", "1.1", "1.2", "2.0", "2.1"])
        #expect(harness.reloads(of: "a") == [t0, t0.addingTimeInterval(120)])
    }

    @Test func afterReloadsAtItsDateEvenWithEntriesLeft() {
        var harness = EngineHarness([instance("a")], at: t0)
        harness.run(until: t0.addingTimeInterval(100)) { _, now in
            .success(
                Timeline(entries: entries(now, ["x", "y", "z"], every: 60), policy: .after(now.addingTimeInterval(30))))
        }
        #expect(
            harness.reloads(of: "a") == [
                t0, t0.addingTimeInterval(30), t0.addingTimeInterval(60), t0.addingTimeInterval(90),
            ])
    }

    @Test func neverReloadsOnlyOnRequestAndThenSleeps() {
        var harness = EngineHarness([instance("a")], at: t0)
        harness.complete("a", .success(Timeline(entries: entries(t0, ["only"], every: 60), policy: .never)))
        #expect(harness.engine.nextDeadline() == nil)
        harness.now = t0.addingTimeInterval(3600)
        harness.engine.request(.instance("a"), now: harness.now)
        #expect(harness.engine.nextDeadline() == harness.now)
        harness.record(harness.engine.advance(now: harness.now))
        #expect(harness.reloads(of: "a") == [t0, t0.addingTimeInterval(3600)])
    }

    /// A timeline with entries to come and `policy: never` (a plugin's or a script's): each entry is shown at its date,
    /// from the one answer, and the provider is not asked again.
    @Test func neverSwapsLaterEntriesInAtTheirDatesWithoutAnotherCall() {
        var harness = EngineHarness([instance("a")], at: t0)
        var calls = 0
        harness.run(until: t0.addingTimeInterval(3600)) { _, now in
            calls += 1
            return .success(Timeline(entries: entries(now, ["A", "B"], every: 1.5), policy: .never))
        }
        let shown = harness.log.compactMap { date, action -> String? in
            if case .show("a", let content) = action { return "\(date.timeIntervalSince(t0)) \(content.text)" }
            return nil
        }
        #expect(shown == ["0.0 placeholder", "0.0 A", "1.5 B"])
        #expect(calls == 1)
        #expect(harness.reloads(of: "a") == [t0])
    }

    @Test func cronAddsReloadTimesAndTheEarliestWins() {
        var harness = EngineHarness(
            [instance("a", schedule: "*/15 * * * *", zone: "UTC")], at: t0.addingTimeInterval(60))
        harness.run(until: t0.addingTimeInterval(3600 + 60)) { _, now in
            .success(Timeline(entries: entries(now, ["x"], every: 1), policy: .after(now.addingTimeInterval(40 * 60))))
        }
        // Start 12:01; cron at 12:15, 12:30, 12:45, 13:00; the policy's 40 minutes never come first.
        let expected = ["12:01", "12:15", "12:30", "12:45", "13:00"].map { at("2026-06-01T\($0):00+00:00") }
        #expect(harness.reloads(of: "a") == expected)
    }

    @Test func requestsTogetherCoalesceAndOneDuringAReloadCausesExactlyOneMore() {
        var harness = EngineHarness([instance("a")], at: t0)
        // During the start-up reload: three requests → exactly one more reload after it.
        for _ in 0..<3 { harness.engine.request(.all, now: t0) }
        harness.complete("a", .success(Timeline(entries: entries(t0, ["1"], every: 1), policy: .never)))
        #expect(harness.reloads(of: "a") == [t0, t0])
        harness.complete("a", .success(Timeline(entries: entries(t0, ["2"], every: 1), policy: .never)))
        #expect(harness.pending.isEmpty)
        // Idle: several requests before the loop runs become one reload.
        harness.now = t0.addingTimeInterval(5)
        harness.engine.request(.kind("sample"), now: harness.now)
        harness.engine.request(.instance("a"), now: harness.now)
        harness.record(harness.engine.advance(now: harness.now))
        #expect(harness.reloads(of: "a").count == 3)
    }

    @Test func requestsMatchByKindAndName() {
        var harness = EngineHarness([instance("a", kind: "k1"), instance("b", kind: "k2")], at: t0)
        harness.complete("a", .success(Timeline(entries: [], policy: .never)))
        harness.complete("b", .success(Timeline(entries: [], policy: .never)))
        #expect(harness.engine.request(.kind("k2"), now: t0) == ["b"])
        #expect(harness.engine.request(.instance("nope"), now: t0) == [])
        #expect(harness.engine.request(.all, now: t0) == ["a", "b"])
    }

    @Test func oneInstanceRequestedDuringItsReloadGetsExactlyOneMore() {
        var harness = EngineHarness([instance("a"), instance("b")], at: t0)
        // The single-instance path (a FIFO line's `reload a`) coalesces like `.all`, and touches no other widget.
        #expect(harness.engine.request(.instance("a"), now: t0) == ["a"])
        #expect(harness.engine.request(.instance("a"), now: t0) == ["a"])
        harness.complete("a", .success(Timeline(entries: entries(t0, ["1"], every: 1), policy: .never)))
        harness.complete("b", .success(Timeline(entries: entries(t0, ["1"], every: 1), policy: .never)))
        #expect(harness.reloads(of: "a") == [t0, t0])
        #expect(harness.reloads(of: "b") == [t0])
    }

    @Test func theAwaitedInstanceIsAnsweredOnlyForTheReloadInFlight() throws {
        var harness = EngineHarness([instance("a")], at: t0)
        let token = try #require(harness.pending["a"])
        let asked = harness.engine.withAwaitedInstance(named: "a", token: token, at: t0) { instance, current in
            "\(instance.name) \(current.text)"
        }
        #expect(asked == "a placeholder")
        #expect(harness.engine.withAwaitedInstance(named: "a", token: token + 1, at: t0) { _, _ in true } == nil)
        #expect(harness.engine.withAwaitedInstance(named: "nope", token: token, at: t0) { _, _ in true } == nil)
        // Answered: no reload is awaited any more, as `isAwaiting` says.
        harness.complete("a", .success(Timeline(entries: entries(t0, ["1"], every: 1), policy: .never)))
        #expect(harness.engine.withAwaitedInstance(named: "a", token: token, at: t0) { _, _ in true } == nil)
        #expect(!harness.engine.isAwaiting(instance: "a", token: token))
    }

    @Test func aProviderAskingToReloadAtOnceIsRateLimited() {
        var harness = EngineHarness([instance("a")], at: t0)
        harness.run(until: t0.addingTimeInterval(40)) { _, now in
            .success(Timeline(entries: entries(now, ["x"], every: 1), policy: .after(now)))
        }
        let gaps = zip(harness.reloads(of: "a").dropFirst(), harness.reloads(of: "a")).map { $0.timeIntervalSince($1) }
        #expect(gaps == [1, 2, 4, 8, 16])
    }

    /// A widget sampled every second asks for the next whole second; the daemon started it between two, and the loop
    /// wakes a little after each. The spacing counts from when a reload was due, so the samples keep to the boundaries
    /// (and beside the other widgets sampled there), and each reload comes when the policy asked, as the status file
    /// says.
    @Test func aReloadEverySecondThatStartsLateStaysOnTheSecond() throws {
        var harness = EngineHarness([instance("a")], at: t0.addingTimeInterval(0.4))
        let late = 0.003
        for second in 1...30 {
            let answered = harness.now
            let boundary = Date(
                timeIntervalSinceReferenceDate: (answered.timeIntervalSinceReferenceDate + 1).rounded(.down))
            harness.complete(
                "a", .success(Timeline(entries: entries(answered, ["\(second)"], every: 1), policy: .after(boundary))))
            let status = try #require(harness.engine.status(of: "a", now: answered))
            #expect(status.nextReload == boundary)
            #expect(harness.engine.nextDeadline() == boundary)
            harness.now = boundary.addingTimeInterval(late)
            harness.record(harness.engine.advance(now: harness.now))
        }
        let starts = harness.reloads(of: "a").dropFirst().map { ($0.timeIntervalSince(t0) * 1000).rounded() }
        #expect(starts == (1...30).map { Double($0 * 1000) + late * 1000 })
    }

    /// A reload asked for in the future but sooner than the spacing is kept once after a request (the first sample's
    /// boundary may be that near), then held a spacing after the last one.
    @Test func aProviderAskingForAReloadVerySoonIsRateLimited() {
        var harness = EngineHarness([instance("a")], at: t0)
        harness.run(until: t0.addingTimeInterval(5)) { _, now in
            .success(Timeline(entries: entries(now, ["x"], every: 1), policy: .after(now.addingTimeInterval(0.1))))
        }
        let starts = harness.reloads(of: "a").map { ($0.timeIntervalSince(t0) * 10).rounded() / 10 }
        #expect(starts == [0, 0.1, 1.1, 2.1, 3.1, 4.1])
    }

    @Test func anEmptyAtEndTimelineIsRateLimitedToo() {
        var harness = EngineHarness([instance("a")], at: t0)
        harness.run(until: t0.addingTimeInterval(10)) { _, _ in .success(Timeline(entries: [], policy: .atEnd)) }
        #expect(harness.reloads(of: "a").count == 4)  // 0, 1, 3, 7
    }

    @Test func aFailingProviderKeepsItsLastGoodEntryMarkedStaleAndBacksOff() {
        var harness = EngineHarness([instance("a")], at: t0)
        harness.complete(
            "a", .success(Timeline(entries: entries(t0, ["good"], every: 1), policy: .after(t0.addingTimeInterval(10))))
        )
        harness.run(until: t0.addingTimeInterval(10 + 1 + 2 + 4 + 8 + 0.5)) { _, _ in .failure(ProviderFailure("boom"))
        }
        let reloads = harness.reloads(of: "a").map { $0.timeIntervalSince(t0) }
        #expect(reloads == [0, 10, 11, 13, 17, 25])
        let content = harness.engine.content(of: "a", at: harness.now)
        #expect(content?.text == "good")
        #expect(content?.state == .stale)
        #expect(content?.foreground == Color(hex: "#888888"))
        #expect(content?.tooltip?.contains("boom") == true)
        // Success clears the failure and the stale mark.
        harness.now = t0.addingTimeInterval(30)
        harness.engine.request(.instance("a"), now: harness.now)
        harness.record(harness.engine.advance(now: harness.now))
        harness.complete("a", .success(Timeline(entries: entries(harness.now, ["fresh"], every: 1), policy: .never)))
        #expect(harness.engine.content(of: "a", at: harness.now)?.state == .normal)
    }

    @Test func backoffIsCapped() {
        let settings = EngineSettings()
        #expect(
            (1...12).map { settings.backoff(afterFailures: $0) } == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300])
    }

    @Test func lateResultsOfASupersededCallAreIgnored() {
        var harness = EngineHarness([instance("a")], at: t0)
        let stale = harness.pending["a"]!
        // The loop timed the call out and reported a failure; the late success must not land.
        harness.complete("a", .failure(ProviderFailure("timed out after 10 s")))
        let late = harness.engine.completed(
            instance: "a", token: stale,
            result: .success(Timeline(entries: entries(t0, ["late"], every: 1), policy: .never)), now: t0)
        #expect(late.isEmpty)
        #expect(harness.engine.content(of: "a", at: t0)?.text == "placeholder")
    }

    @Test func aClockJumpForwardOverSeveralCronTimesFiresOnce() {
        var harness = EngineHarness([instance("a", schedule: "*/5 * * * *", zone: "UTC")], at: t0)
        harness.complete("a", .success(Timeline(entries: entries(t0, ["x"], every: 1), policy: .never)))
        // The machine sleeps for an hour: twelve cron times pass unseen.
        harness.now = t0.addingTimeInterval(3600 + 30)
        harness.record(harness.engine.clockChanged(now: harness.now))
        #expect(harness.reloads(of: "a") == [t0, harness.now])
        harness.complete("a", .success(Timeline(entries: entries(harness.now, ["y"], every: 1), policy: .never)))
        #expect(harness.engine.nextDeadline() == at("2026-06-01T13:05:00+00:00"))
    }

    @Test func aClockJumpBackwardTakesTheNextCronTimeFromTheNewNow() {
        var harness = EngineHarness([instance("a", schedule: "0 * * * *", zone: "UTC")], at: t0)
        harness.complete("a", .success(Timeline(entries: entries(t0, ["one", "two"], every: 1800), policy: .never)))
        harness.run(until: t0.addingTimeInterval(1900)) { _, now in
            .success(Timeline(entries: entries(now, ["z"], every: 1), policy: .never))
        }
        #expect(harness.shown("a").last == "two")
        // Back by a day, to 12:31:40 the day before: the 13:00 fire time it had is now a day away, so the next
        // is taken from the new now (13:00 that day). The timeline was made for a day that has not come yet:
        // its first entry shows, and a reload starts at once.
        let reloadsBefore = harness.reloads(of: "a").count
        harness.now = t0.addingTimeInterval(1900 - 86_400)
        harness.record(harness.engine.clockChanged(now: harness.now))
        #expect(harness.shown("a").last == "one")
        #expect(harness.reloads(of: "a").count == reloadsBefore + 1)
        #expect(harness.reloads(of: "a").last == harness.now)
        harness.complete("a", .success(Timeline(entries: entries(harness.now, ["back"], every: 1), policy: .never)))
        #expect(harness.shown("a").last == "back")
        #expect(harness.engine.nextDeadline() == t0.addingTimeInterval(3600 - 86_400))
    }

    @Test func aClockStepBackReloadsATimelineMadeForLater() {
        // A per-minute clock from 12:00; NTP steps the wall clock back to 11:55.
        var harness = EngineHarness([instance("clock")], at: t0)
        harness.complete(
            "clock", .success(Timeline(entries: entries(t0, ["12:00", "12:01"], every: 60), policy: .atEnd)))
        harness.now = t0.addingTimeInterval(-300)
        harness.record(harness.engine.clockChanged(now: harness.now))
        #expect(harness.reloads(of: "clock").last == harness.now)
        harness.complete(
            "clock", .success(Timeline(entries: entries(harness.now, ["11:55", "11:56"], every: 60), policy: .atEnd)))
        #expect(harness.shown("clock").last == "11:55")
        // A small step back that no reload started after changes nothing.
        var steady = EngineHarness([instance("quote")], at: t0)
        steady.complete("quote", .success(Timeline(entries: entries(t0, ["q"], every: 60), policy: .never)))
        steady.now = t0.addingTimeInterval(600)
        steady.record(steady.engine.clockChanged(now: steady.now))
        steady.now = t0.addingTimeInterval(300)
        steady.record(steady.engine.clockChanged(now: steady.now))
        #expect(steady.reloads(of: "quote") == [t0])
    }

    @Test func berlinSpringForwardFiresAtTheEndOfTheGap() {
        let start = at("2026-03-28T23:00:00+00:00")
        var harness = EngineHarness([instance("a", schedule: "30 2 * * *", zone: "Europe/Berlin")], at: start)
        harness.run(until: at("2026-03-30T06:00:00+00:00")) { _, now in
            .success(Timeline(entries: entries(now, ["x"], every: 1), policy: .never))
        }
        #expect(harness.reloads(of: "a") == [start, at("2026-03-29T03:00:00+02:00"), at("2026-03-30T02:30:00+02:00")])
    }

    @Test func berlinFallBackFiresOnceInTheRepeatedHour() {
        let start = at("2026-10-24T22:00:00+00:00")
        var harness = EngineHarness([instance("a", schedule: "30 2 * * *", zone: "Europe/Berlin")], at: start)
        harness.run(until: at("2026-10-26T06:00:00+00:00")) { _, now in
            .success(Timeline(entries: entries(now, ["x"], every: 1), policy: .never))
        }
        #expect(harness.reloads(of: "a") == [start, at("2026-10-25T02:30:00+02:00"), at("2026-10-26T02:30:00+01:00")])
    }

    @Test func timerTextTicksEverySecondWithoutAReload() {
        var harness = EngineHarness([instance("a")], at: t0)
        let content = EntryContent(
            text: "tea {date}", dynamicDate: DynamicDate(t0.addingTimeInterval(3), style: .timer))
        harness.complete("a", .success(Timeline(entries: [TimelineEntry(date: t0, content: content)], policy: .never)))
        harness.run(until: t0.addingTimeInterval(5)) { _, _ in .failure(ProviderFailure("must not be called")) }
        #expect(
            harness.shown("a") == [
                "placeholder", "tea 00:03", "tea 00:02", "tea 00:01", "tea 00:00", "tea 00:01", "tea 00:02",
            ])
        #expect(harness.reloads(of: "a") == [t0])
    }
}

@Suite("dynamic dates")
struct DynamicDateTests {
    let date = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(
        arguments: [
            (-299.5, "in 4 min"), (-240.5, "in 4 min"), (-240, "in 3 min"), (-59.5, "in 59 s"), (-3.5, "in 3 s"),
            (-3, "in 2 s"),
            (-0.5, "now"), (0, "now"), (0.5, "now"), (59, "59 s ago"), (130, "2 min ago"), (7200, "2 h ago"),
            (3 * 86_400, "3 d ago"),
            // Past a unit's boundary by a second, either side reads the same amount of the larger unit; at the
            // boundary before the date, the smaller unit's last amount.
            (-3601, "in 1 h"), (3601, "1 h ago"), (-86_401, "in 1 d"), (86_401, "1 d ago"), (-61, "in 1 min"),
            (61, "1 min ago"), (-3600, "in 59 min"), (3600, "1 h ago"), (-60, "in 59 s"), (-86_400, "in 23 h"),
        ] as [(TimeInterval, String)])
    func relativeText(_ offset: TimeInterval, _ expected: String) {
        #expect(DynamicDate(date, style: .relative).text(at: date.addingTimeInterval(offset)) == expected)
    }

    @Test(
        arguments: [(-299.5, "05:00"), (-299, "04:59"), (-3725, "1:02:05"), (61, "01:01")] as [(TimeInterval, String)])
    func timerText(_ offset: TimeInterval, _ expected: String) {
        #expect(DynamicDate(date, style: .timer).text(at: date.addingTimeInterval(offset)) == expected)
    }

    /// Without a `{date}` token the date follows the text after one space; a text ending in a space gets no second.
    @Test(arguments: [("tea", "tea 00:03"), ("🍅 ", "🍅 00:03"), ("", "00:03"), ("at {date}!", "at 00:03!")])
    func theDateJoinsTheTextWithOneSpace(text: String, expected: String) {
        let content = EntryContent(text: text, dynamicDate: DynamicDate(date, style: .timer))
        #expect(content.resolved(at: date.addingTimeInterval(-3)).text == expected)
    }

    /// Every change of the text falls on a `nextChange` the text before it named: walking from an hour and a bit
    /// before the date to one after it by those instants, and checking a hair before each, misses no change.
    @Test func nextChangeMissesNoChangeOfTheText() {
        let relative = DynamicDate(date, style: .relative)
        var now = date.addingTimeInterval(-3700.25)
        var steps = 0
        while now < date.addingTimeInterval(3700) {
            let next = relative.nextChange(after: now)
            #expect(next > now)
            #expect(relative.text(at: next.addingTimeInterval(-0.001)) == relative.text(at: now), "before \(next)")
            now = next
            steps += 1
        }
        #expect(steps < 300)
    }

    @Test func nextChangeIsTheNextBoundaryOfTheUnitShown() {
        let relative = DynamicDate(date, style: .relative)
        #expect(relative.nextChange(after: date.addingTimeInterval(-299.5)) == date.addingTimeInterval(-240))
        #expect(relative.nextChange(after: date.addingTimeInterval(130)) == date.addingTimeInterval(180))
        let timer = DynamicDate(date, style: .timer)
        #expect(timer.nextChange(after: date.addingTimeInterval(-2.25)) == date.addingTimeInterval(-2))
    }
}

@Suite("engine timeouts")
struct EngineTimeoutTests {
    @Test func aCallStartingLateLosesNoEntryThatIsDue() {
        let t0 = at("2026-06-01T12:00:00+00:00")
        var harness = EngineHarness([instance("a")], at: t0)
        harness.complete("a", .success(Timeline(entries: entries(t0, ["A", "B", "C"], every: 10), policy: .never)))
        harness.now = t0.addingTimeInterval(5)
        harness.engine.request(.instance("a"), now: harness.now)
        harness.record(harness.engine.advance(now: harness.now))
        let token = harness.pending["a"]!
        // The loop hands the call to a thread in the same pass that B falls due in.
        harness.now = t0.addingTimeInterval(10.001)
        harness.engine.started(instance: "a", token: token, now: harness.now)
        harness.record(harness.engine.advance(now: harness.now))
        #expect(harness.shown("a").last == "B")
    }

    @Test func theTimeoutCountsFromWhenTheCallStarted() {
        let t0 = at("2026-06-01T12:00:00+00:00")
        var settings = EngineSettings()
        settings.providerTimeout = 5
        var harness = EngineHarness([instance("queued")], at: t0, settings: settings)
        let token = harness.pending["queued"]!
        #expect(harness.engine.nextDeadline() == t0.addingTimeInterval(5))
        // It waited 3 s for a free provider thread.
        harness.now = t0.addingTimeInterval(3)
        harness.engine.started(instance: "queued", token: token, now: harness.now)
        // The old wake-up at 5 s stays and finds nothing timed out; the next is the new deadline.
        harness.now = t0.addingTimeInterval(5)
        harness.record(harness.engine.advance(now: harness.now))
        #expect(harness.engine.status(of: "queued", now: harness.now)?.lastError == nil)
        #expect(harness.engine.nextDeadline() == t0.addingTimeInterval(8))
        harness.now = t0.addingTimeInterval(6)
        harness.record(harness.engine.advance(now: harness.now))
        #expect(harness.engine.status(of: "queued", now: harness.now)?.lastError == nil)
        // A token that is not the one in flight changes nothing.
        harness.engine.started(instance: "queued", token: token + 100, now: harness.now)
        #expect(harness.engine.nextDeadline() == t0.addingTimeInterval(8))
    }

    @Test func aSlowProviderTimesOutGoesStaleAndItsLateAnswerIsIgnored() {
        let t0 = at("2026-06-01T12:00:00+00:00")
        var settings = EngineSettings()
        settings.providerTimeout = 5
        var harness = EngineHarness([instance("slow"), instance("fast")], at: t0, settings: settings)
        let slowToken = harness.pending.removeValue(forKey: "slow")!
        harness.complete("fast", .success(Timeline(entries: entries(t0, ["fast"], every: 1), policy: .never)))
        // The fast one showed at once; the slow one holds nothing up.
        #expect(harness.shown("fast") == ["placeholder", "fast"])
        #expect(harness.engine.nextDeadline() == t0.addingTimeInterval(5))
        harness.now = t0.addingTimeInterval(5)
        harness.record(harness.engine.advance(now: harness.now))
        let status = harness.engine.status(of: "slow", now: harness.now)
        #expect(status?.lastError == "timed out after 5 s")
        #expect(status?.content.state == .stale)
        // Said once, for the loop to log and to answer a `--wait` with.
        let failures = harness.log.compactMap { _, action -> String? in
            if case .failed("slow", slowToken, let reason) = action { return reason }
            return nil
        }
        #expect(failures == ["timed out after 5 s"])
        #expect(harness.engine.nextDeadline() == t0.addingTimeInterval(6))  // first retry after 1 s
        let late = harness.engine.completed(
            instance: "slow", token: slowToken,
            result: .success(Timeline(entries: entries(t0, ["late"], every: 1), policy: .never)), now: harness.now)
        #expect(late.isEmpty)
    }
}
