import Config
import Control
import Foundation
import Kind
import Testing
import Timelines

@testable import Daemon

/// A kind whose calls go where a test wants them: the store's lane, a plugin's, or the shared one.
private struct LaneKind: WidgetKind {
    let name: String
    let displayName = "Lane"
    let summary = "A kind for the reload dispatcher's tests."
    let families: [Family] = [.systemSmall]
    let parameters: [ParameterSpec] = []
    let intents: [IntentSpec] = []
    var usesStore = false
    var providerProcess: (any ProviderProcess)?
    var answersAtOnce = false

    func placeholder(in context: ProviderContext) -> EntryContent { EntryContent(text: "…") }

    func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        TimelineEntry(date: context.now, content: EntryContent(text: name))
    }

    func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        Timeline(entries: [try await snapshot(for: configuration, in: context)], policy: .never)
    }
}

/// A plugin's program that is never started: only its presence puts a kind's calls in the plugins' lane.
private final class IdleProgram: ProviderProcess {
    func stop() {}
}

/// The daemon's reload rules (`ReloadDispatcher`) with an engine and a clock the test moves (`ManualClock`): no daemon,
/// provider thread, file or real sleeping. The "provider" is the test, answering calls when it chooses.
@Suite("the reload dispatcher: lanes, limits, timeouts and acknowledgements on a driven clock")
struct ReloadDispatcherTests {
    private static let start = Date(timeIntervalSince1970: 2_000_000_000)
    private static let registry = KindRegistry([
        LaneKind(name: "quotes"), LaneKind(name: "todos", usesStore: true),
        LaneKind(name: "plugged", providerProcess: IdleProgram()), LaneKind(name: "clock", answersAtOnce: true),
    ])

    /// The engine, the dispatcher and the clock, wired as the daemon wires them (`Daemon.perform`,
    /// `Daemon.startWaitingReloads`), and the calls handed out, in order.
    private struct Bench {
        let clock = ManualClock(ReloadDispatcherTests.start)
        var engine: Engine<WidgetInstance>
        var dispatcher: ReloadDispatcher
        /// Every call handed to a "provider thread": instance, token and when.
        var handedOut: [(instance: String, token: UInt64, at: Date)] = []
        /// Acknowledgements completed, in order.
        var done: [AcknowledgementBook.Done] = []
        /// Calls that timed out, as the engine reported them.
        var timedOut: [String] = []

        init(_ instances: [WidgetInstance]) {
            engine = Engine(instances: instances, placeholders: [:], now: clock.now)
            dispatcher = ReloadDispatcher(clock: clock)
        }

        /// What the daemon does with the engine's actions: reloads queued in their lanes, timeouts settled.
        mutating func take(_ actions: [EngineAction]) {
            for action in actions {
                switch action {
                case .reload(let name, let token):
                    let lane = engine.withInstance(named: name) {
                        ReloadDispatcher.lane(of: $0, kind: ReloadDispatcherTests.registry.kind(named: $0.kind))
                    }
                    dispatcher.queue(name, token: token, lane: (lane ?? nil) ?? .shared)
                case .failed(let name, let token, let reason):
                    timedOut.append(name)
                    done += dispatcher.reloadFinished(instance: name, token: token, failure: "\(name): \(reason)")
                default: break
                }
            }
            var handed: [(String, UInt64, Date)] = []
            dispatcher.startWaiting(in: &engine) { reload, _, _, now in
                handed.append((reload.instance, reload.token, now))
                return .running
            }
            handedOut += handed.map { (instance: $0.0, token: $0.1, at: $0.2) }
        }

        /// The loop's turn at the clock's time.
        mutating func turn() {
            take(engine.advance(now: clock.now))
        }

        /// The provider answers the call handed out for `name` last: its slot frees, its acknowledgements settle.
        mutating func answer(_ name: String, failure: String? = nil) throws {
            let call = try #require(handedOut.last { $0.instance == name })
            let lane = try #require(
                engine.withInstance(named: name) {
                    ReloadDispatcher.lane(of: $0, kind: ReloadDispatcherTests.registry.kind(named: $0.kind))
                })
            dispatcher.callFinished(on: try #require(lane))
            let result: Result<Timeline, ProviderFailure> =
                failure.map { .failure(ProviderFailure($0)) }
                ?? .success(
                    Timeline(entries: [TimelineEntry(date: clock.now, content: .init(text: "ok"))], policy: .never))
            let awaited = engine.isAwaiting(instance: name, token: call.token)
            let actions = engine.completed(instance: name, token: call.token, result: result, now: clock.now)
            if awaited {
                done += dispatcher.reloadFinished(
                    instance: name, token: call.token, failure: failure.map { "\(name): \($0)" })
            }
            take(actions)
        }

        /// A reload request with a `--wait` token, as `Daemon.request` makes it.
        mutating func request(_ target: ReloadTarget, waiting token: String) throws -> ReloadDispatcher.Refusal? {
            let issuedBefore = engine.lastIssuedToken
            let names = engine.request(target, now: clock.now)
            return dispatcher.acknowledge(
                try #require(ControlCommand.AckToken(token)), whenReloaded: names, issuedBefore: issuedBefore)
        }

        func calls(of name: String) -> Int { handedOut.count { $0.instance == name } }
    }

    private static func widget(_ name: String, kind: String = "quotes", runMode: RunMode = .inProcess)
        -> WidgetInstance
    {
        WidgetInstance(name: name, kind: kind, family: .systemSmall, runMode: runMode)
    }

    @Test func eachReloadWaitsInItsKindsLane() {
        func lane(_ instance: WidgetInstance) -> ProviderLane? {
            ReloadDispatcher.lane(of: instance, kind: Self.registry.kind(named: instance.kind))
        }
        #expect(lane(Self.widget("quote")) == .shared)
        #expect(lane(Self.widget("clock", kind: "clock")) == .loop)
        #expect(lane(Self.widget("todo", kind: "todos")) == .store)
        #expect(lane(Self.widget("plugged", kind: "plugged")) == .plugins)
        #expect(lane(Self.widget("script", runMode: RunMode(blocksThread: true))) == .commands)
        // A command that blocks a thread goes to the commands' lane whatever else its kind does.
        #expect(lane(Self.widget("todo", kind: "todos", runMode: RunMode(blocksThread: true))) == .commands)
        #expect(lane(Self.widget("gone", kind: "unknown")) == .shared)
        #expect(lane(Self.widget("tail", runMode: RunMode(blocksThread: true, isPersistent: true))) == nil)
    }

    @Test func aLaneStartsNoMoreThanItsLimitAndAFinishedCallLetsTheNextIn() throws {
        var bench = Bench((1...40).map { Self.widget("quote\($0)") } + [Self.widget("todo", kind: "todos")])
        bench.turn()
        // 32 shared calls at once, and the store's one beside them: a full lane holds up no other.
        #expect(bench.handedOut.count == 33)
        #expect(bench.calls(of: "todo") == 1)
        #expect(bench.dispatcher.lanes.shared.waitingCount == 8)
        let waiting = Set((1...40).map { "quote\($0)" }).subtracting(bench.handedOut.map(\.instance))
        try bench.answer("quote1")
        #expect(bench.handedOut.count == 34)
        #expect(waiting.contains(bench.handedOut.last?.instance ?? ""), "the freed slot goes to a waiting reload")
    }

    @Test func aCallsTimeoutCountsFromWhenItIsHandedOutNotFromWhenItWasAsked() throws {
        var bench = Bench([Self.widget("first", kind: "todos"), Self.widget("second", kind: "todos")])
        bench.turn()
        #expect(bench.handedOut.map(\.instance) == ["first"], "the store's lane runs one call at a time")
        bench.clock.advance(by: 8)
        try bench.answer("first")
        let second = try #require(bench.handedOut.last)
        #expect(second.instance == "second" && second.at == Self.start + 8)
        // Ten seconds after it was asked for, but only four after it was handed out: still running.
        bench.clock.advance(by: 4)
        bench.turn()
        #expect(bench.timedOut.isEmpty)
        bench.clock.advance(by: 6.5)
        bench.turn()
        #expect(bench.timedOut == ["second"])
    }

    @Test func aReloadThatWaitedPastItsTimeoutIsSkippedAndItsWaitFails() throws {
        var bench = Bench([Self.widget("first", kind: "todos"), Self.widget("second", kind: "todos")])
        bench.turn()
        try bench.answer("first")
        try bench.answer("second")
        bench.engine.request(.instance("first"), now: bench.clock.now)
        let refusal = try bench.request(.instance("second"), waiting: "w")
        #expect(refusal == nil)
        bench.turn()
        #expect(bench.calls(of: "first") == 2 && bench.calls(of: "second") == 1, "the second waits behind the first")
        // The first call hangs: the second waits behind it past the default timeout of 10 s.
        bench.clock.advance(by: 10.5)
        bench.turn()
        #expect(Set(bench.timedOut) == ["first", "second"])
        #expect(bench.done.map(\.token.rawValue) == ["w"])
        #expect(bench.done.first?.failure == "second: timed out after 10 s")
        // The hung call ends at last: its slot goes to no one, as the engine no longer waits for the second's reload.
        try bench.answer("first")
        #expect(bench.calls(of: "second") == 1)
        #expect(bench.dispatcher.lanes.store.running == 0 && bench.dispatcher.lanes.store.waitingCount == 0)
    }

    @Test func aWaitCountsOnlyTheReloadsThatStartedAfterIt() throws {
        var bench = Bench([Self.widget("quote")])
        bench.turn()
        #expect(bench.calls(of: "quote") == 1)
        // Asked while the start-up's call runs: that call's answer is older than the request.
        let refusal = try bench.request(.instance("quote"), waiting: "w")
        #expect(refusal == nil)
        try bench.answer("quote")
        #expect(bench.done.isEmpty)
        bench.turn()
        #expect(bench.calls(of: "quote") == 2, "the request's own reload follows the one that was running")
        try bench.answer("quote")
        #expect(bench.done.map(\.token.rawValue) == ["w"])
        #expect(bench.done.first?.failure == nil && bench.done.first?.widgets == ["quote"])
    }

    @Test func repeatedRequestsDuringAReloadCoalesceIntoOneMoreCallThatAnswersEveryWait() throws {
        var bench = Bench([Self.widget("quote")])
        bench.turn()
        for token in ["a", "b", "c"] {
            let refusal = try bench.request(.instance("quote"), waiting: token)
            #expect(refusal == nil)
        }
        try bench.answer("quote")
        bench.turn()
        try bench.answer("quote")
        bench.turn()
        #expect(bench.calls(of: "quote") == 2)
        #expect(bench.done.map(\.token.rawValue) == ["a", "b", "c"])
    }

    @Test func aFailedReloadAnswersItsWaitWithWhy() throws {
        var bench = Bench([Self.widget("quote"), Self.widget("other")])
        bench.turn()
        try bench.answer("quote")
        try bench.answer("other")
        let refusal = try bench.request(.all, waiting: "w")
        #expect(refusal == nil)
        bench.turn()
        try bench.answer("quote", failure: "no network")
        #expect(bench.done.isEmpty, "the wait is for both widgets")
        try bench.answer("other")
        #expect(bench.done.first?.failure == "quote: no network")
        #expect(bench.done.first?.widgets == ["quote", "other"])
    }

    @Test func aWaitIsRefusedWhenItMatchesNothingOrTooManyWait() throws {
        var bench = Bench([Self.widget("quote")])
        bench.turn()
        let nothing = try bench.request(.instance("nowhere"), waiting: "none")
        #expect(nothing == .matchesNothing)
        for index in 0..<AcknowledgementBook.limit {
            let refusal = try bench.request(.instance("quote"), waiting: "t\(index)")
            #expect(refusal == nil)
        }
        #expect(bench.dispatcher.acknowledgementsWaiting == AcknowledgementBook.limit)
        let over = try bench.request(.instance("quote"), waiting: "over")
        #expect(over == .tooManyWaiting)
        #expect(bench.dispatcher.acknowledgementsWaiting == AcknowledgementBook.limit)
    }

    @Test func aWidgetRemovedFromTheConfigFailsTheWaitsForIt() throws {
        var bench = Bench([Self.widget("quote")])
        bench.turn()
        let refusal = try bench.request(.instance("quote"), waiting: "w")
        #expect(refusal == nil)
        let done = bench.dispatcher.forget(instance: "quote")
        #expect(done.map(\.token.rawValue) == ["w"])
        #expect(done.first?.failure == "'quote' was removed from the configuration")
    }

    @Test func intentsOnCommandWidgetsAreAdmittedUpToTheirLimit() {
        var dispatcher = ReloadDispatcher(clock: ManualClock(Self.start))
        let admitted = (0..<ReloadDispatcher.commandIntentsAtOnce).count { _ in dispatcher.admitCommandIntent() }
        #expect(admitted == ReloadDispatcher.commandIntentsAtOnce)
        let overLimit = dispatcher.admitCommandIntent()
        #expect(!overLimit, "a click past the limit is refused")
        dispatcher.commandIntentFinished()
        let afterOneFinished = dispatcher.admitCommandIntent()
        #expect(afterOneFinished)
    }

    @Test func theStoreIsHeldWhileStoreReloadsWaitBehindAnother() throws {
        var bench = Bench([Self.widget("quote")])
        #expect(!bench.dispatcher.wantsStoreHeld(holding: false))
        bench = Bench([Self.widget("todo", kind: "todos")])
        bench.turn()
        // One store reload, running, with none behind it: the call holds the store itself.
        #expect(!bench.dispatcher.wantsStoreHeld(holding: false))
        bench = Bench([Self.widget("first", kind: "todos"), Self.widget("second", kind: "todos")])
        bench.turn()
        #expect(bench.dispatcher.wantsStoreHeld(holding: false))
        try bench.answer("first")
        // The last one is running: nothing waits behind it, so the hold goes.
        #expect(!bench.dispatcher.wantsStoreHeld(holding: true))
    }
}
