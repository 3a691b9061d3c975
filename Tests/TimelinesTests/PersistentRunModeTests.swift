import Foundation
import Testing

@testable import Config
@testable import Kind
@testable import Timelines

@Suite("persistent run mode")
struct PersistentRunModeTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func instance(_ mode: RunMode) -> WidgetInstance {
        WidgetInstance(name: "p", kind: "exec", family: .systemSmall, runMode: mode)
    }

    @Test func aReloadStartsItButAwaitsNoAnswerAndPushedTimelinesShowAtOnce() {
        var engine = Engine(
            instances: [instance(RunMode(blocksThread: true, isPersistent: true))],
            placeholders: ["p": EntryContent(text: "…")], now: start)
        let actions = engine.advance(now: start)
        guard case .reload(_, let token)? = actions.first(where: { if case .reload = $0 { true } else { false } })
        else {
            Issue.record("no reload at start: \(actions)")
            return
        }
        // Nothing is in flight: no timeout will fire, and another reload is not held back.
        #expect(!engine.isAwaiting(instance: "p", token: token))
        #expect(engine.nextDeadline() == nil)
        let pushed = Timeline(
            entries: [TimelineEntry(date: start, content: EntryContent(text: "line 1"))], policy: .never)
        let shown = engine.install(pushed, for: "p", now: start.addingTimeInterval(2))
        #expect(shown.contains(.show(instance: "p", content: EntryContent(text: "line 1"))))
        #expect(engine.request(.instance("p"), now: start.addingTimeInterval(3)) == ["p"])
        #expect(
            engine.advance(now: start.addingTimeInterval(3)).contains {
                if case .reload(instance: "p", _) = $0 { true } else { false }
            })
    }

    @Test func aStoppedProviderShowsItsLastEntryStaleUntilTheNextLine() {
        var engine = Engine(
            instances: [instance(RunMode(blocksThread: true, isPersistent: true))],
            placeholders: ["p": EntryContent(text: "…")], now: start)
        _ = engine.advance(now: start)
        _ = engine.install(
            Timeline(entries: [TimelineEntry(date: start, content: EntryContent(text: "up"))], policy: .never),
            for: "p", now: start)
        _ = engine.providerFailed(instance: "p", reason: "exited with status 1", now: start)
        let stale = engine.content(of: "p", at: start)
        #expect(stale?.text == "up")
        #expect(stale?.state == .stale)
        #expect(stale?.tooltip == "exited with status 1")
        _ = engine.install(
            Timeline(entries: [TimelineEntry(date: start, content: EntryContent(text: "again"))], policy: .never),
            for: "p", now: start.addingTimeInterval(1))
        #expect(engine.content(of: "p", at: start.addingTimeInterval(1)) == EntryContent(text: "again"))
    }

    @Test func aKindsOwnTimeoutComesBeforeTheEngines() {
        let timeout = RunMode(blocksThread: true, timeout: 30)
        var engine = Engine(
            instances: [instance(timeout)], placeholders: ["p": EntryContent(text: "…")], now: start,
        )
        _ = engine.advance(now: start)
        // 30 s and one more: the engine gives up only after the command's own limit has killed it.
        #expect(engine.nextDeadline() == start.addingTimeInterval(31))
    }
}
