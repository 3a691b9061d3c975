import Config
import Control
import Formats
import FoundationEssentials
import Kind
import Providers
import Store
import Synchronization
import Timelines

/// A provider call that finished (or timed out), waiting for the loop to hand it to the engine.
struct ProviderCompletion: Sendable {
    var instance: String
    var token: UInt64
    var result: Result<Timeline, ProviderFailure>
    /// Where the call ran, so the loop frees a slot of the right queue.
    var lane = ProviderLane.shared
}

/// An intent that finished running.
struct IntentCompletion: Sendable {
    var instance: String
    var kind: String
    var intent: String
    var outcome: Result<IntentOutcome, IntentError>
    var acknowledgement: ControlCommand.AckToken?
    /// The intent's hold on the store, for the loop to give back (`ProviderRunner.release`) once the reloads the
    /// intent caused have started: the store then stays open, and SQLite loaded, from the intent to those reads.
    var storeHold: StoreHold?
    /// Where it ran: the loop counts the command lane's intents waiting or running (`Daemon.commandIntents`).
    var lane = ProviderLane.shared
}

/// What provider and intent tasks hand back to the loop thread.
enum Completion: Sendable {
    case timeline(ProviderCompletion)
    case intent(IntentCompletion)
    /// A persistent provider's update; `generation` tells a stopped session's last words from the current one's.
    case session(instance: String, generation: UInt64, update: SessionUpdate)
    /// A plugin's pushed `reload` or `log`, or its host's note about it.
    case plugin(PluginEvent)
    /// What the plugins that had failed to load said when tried again; nil when the try could not start.
    case pluginsRetried([FoundPlugin]?)
}

/// Results handed from tasks to the loop thread: a locked queue plus a wake-up for poll().
///
/// A result wakes the loop only while it sleeps or is about to (`loopMaySleep`): one that comes while the loop is busy
/// (a thread's sample finished while the loop read the others of the same second) is taken in before the loop sleeps,
/// with no write to the wake-up and no turn of the loop for it alone.
final class CompletionQueue: Sendable {
    private struct State {
        var items: [Completion] = []
        /// Whether a post must wake the loop. True until the loop first says it is awake, so a queue no loop drives
        /// (a test's) wakes at every post.
        var loopAsleep = true
    }

    private let state = Mutex(State())
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    func post(_ completion: ProviderCompletion) {
        post(.timeline(completion))
    }

    func post(_ completion: Completion) {
        let wakes = state.withLock { state in
            state.items.append(completion)
            return state.loopAsleep
        }
        if wakes { wake() }
    }

    /// Posts from the loop's own thread (a kind answered at once, `ProviderRunner.start`) without a wake-up: the loop
    /// takes it in before it sleeps again (`Daemon.takeInImmediateAnswers`).
    func postFromLoop(_ completion: ProviderCompletion) {
        state.withLock { $0.items.append(.timeline(completion)) }
    }

    var hasPending: Bool { state.withLock { !$0.items.isEmpty } }

    /// The loop is about to sleep: true when it may, and from then on every post wakes it; false when results wait,
    /// to be taken in first.
    func loopMaySleep() -> Bool {
        state.withLock { state in
            guard state.items.isEmpty else { return false }
            state.loopAsleep = true
            return true
        }
    }

    /// The loop woke: until it sleeps again, what is posted waits for it without a wake-up.
    func loopAwake() {
        state.withLock { $0.loopAsleep = false }
    }

    func drain() -> [Completion] {
        state.withLock { state in
            // Not keeping capacity: a start-up burst of 10,000 results would otherwise stay allocated for good.
            defer { state.items = [] }
            return state.items
        }
    }
}

/// Runs provider calls off the loop thread, so a slow provider never delays another instance or the loop: kinds
/// that work in-process share a few threads, and a kind that runs commands gets a thread per call, since a command
/// may take until its timeout.
///
/// Timeouts are the engine's: it gives each call a deadline on the same wall-clock timer as everything
/// else, and ignores an answer that comes after it. (A `Task.sleep` per call would keep libdispatch's
/// timer thread ticking while the daemon is otherwise idle.)
struct ProviderRunner: Sendable {
    /// Replaced when a plugin that failed to load loads on a later try (`DaemonPlugins`).
    var registry: KindRegistry
    let queue: CompletionQueue
    let executor: ProviderExecutor
    /// The store the store-backed kinds read: held open while calls wait for or run on `storeExecutor`, so that a
    /// burst of reads loads SQLite once (`holdStore()`).
    let store: StoreAccess
    /// The daemon's clock, for an intent's deadline checked on its thread.
    let clock: any DaemonClock
    /// As many threads as the daemon lets command reloads run at once (`ReloadLanes.commands`), so a reload never
    /// waits here after its timeout has started.
    let commandExecutor = CommandExecutor(maximumThreads: 64)
    /// Clicks and intents on command widgets: threads of their own, so a burst of clicks on a slow script holds up
    /// no reload; past 16 running, clicks wait their turn.
    let commandIntentExecutor = CommandExecutor(maximumThreads: 16)

    /// Store-backed calls and intents, one at a time (SQLite lets one writer in anyway).
    let storeExecutor = ProviderExecutor(threads: 1, name: "widgetd-store")

    /// How long a store-backed call or intent may wait for another process's lock on the store (`StoreDeadline`),
    /// counted from when the daemon asked for it. Below the CLI's 10 s wait, so a `--wait` hears the final outcome:
    /// an intent either ran or was rolled back and will not run later.
    static let storePatience: TimeInterval = 5

    /// `deadline`, on the daemon's `clock`, as the instant of the wall clock that SQLite's busy wait counts on: what is
    /// left of the store's patience now. The same instant when the daemon's clock is the wall clock; a daemon on a
    /// clock of its own (a test's) still waits no longer than its patience for another process's lock.
    static func wallClock(_ deadline: Date?, on clock: any DaemonClock) -> Date? {
        deadline.map { Date().addingTimeInterval($0.timeIntervalSince(clock.now)) }
    }

    /// The lane `instance`'s calls run on: its run mode says whether it blocks a thread (a command), its kind whether
    /// it uses the store.
    func lane(of instance: WidgetInstance) -> ProviderLane {
        lane(of: instance, kind: registry.kind(named: instance.kind))
    }

    /// `lane(of:)` for an instance whose kind was already looked up (nil: unknown).
    private func lane(of instance: WidgetInstance, kind: (any WidgetKind)?) -> ProviderLane {
        ProviderLane(runMode: instance.runMode, kind: kind)
    }

    private func executor(for lane: ProviderLane) -> any TaskExecutor {
        switch lane {
        case .shared, .plugins, .loop: executor
        case .commands: commandExecutor
        case .store: storeExecutor
        }
    }

    /// Starts `instance`'s timeline call; its result is posted to the queue with `token`.
    /// - Returns: true when the kind answered at once, on this thread (its result is already in the queue); false when
    ///   the call runs elsewhere and may take until its timeout.
    @discardableResult
    func start(_ instance: WidgetInstance, token: UInt64, now: Date, current: EntryContent?) -> Bool {
        guard let kind = registry.kind(named: instance.kind) else {
            queue.post(
                ProviderCompletion(
                    instance: instance.name, token: token,
                    result: .failure(ProviderFailure("unknown kind '\(instance.kind)'")),
                    lane: lane(of: instance)))
            return true
        }
        var context = Self.context(of: instance, now: now, current: current)
        let queue = self.queue
        let lane = lane(of: instance, kind: kind)
        // A kind that computes in memory answers here, on the loop's thread: a thread hop (task creation, a futex
        // wake, two context switches) cost more than the call itself, and most of a reload's latency. Only the loop's
        // lane: a command or the store may wait, and the loop must not. The result still goes through the queue, so
        // it is taken in like any other, before the loop sleeps (`Daemon.takeInImmediateAnswers`), and a timeline
        // that asks again at once cannot recurse. A kind that said it answers at once and did not runs on a thread.
        if lane == .loop, let result = Self.immediateResult(kind, instance, context) {
            queue.postFromLoop(ProviderCompletion(instance: instance.name, token: token, result: result, lane: lane))
            return true
        }
        let deadline = lane == .store ? now.addingTimeInterval(Self.storePatience) : nil
        let hold = lane == .store ? store.hold() : nil
        // Here, on the loop's thread, in the order the reloads and clicks came: their threads start in any order.
        context.placeInLine = kind.placeInLine(for: instance.name, invocation: nil)
        let clock = self.clock
        Task(executorPreference: executor(for: lane)) { [context] in
            let result: Result<Timeline, ProviderFailure>
            do {
                let timeline = try await StoreDeadline.$current.withValue(Self.wallClock(deadline, on: clock)) {
                    try await kind.timeline(for: instance.intent, in: context)
                }
                result = .success(Self.shaped(timeline, by: kind, for: instance))
            } catch {
                result = .failure(ProviderFailure("\(error)"))
            }
            queue.post(ProviderCompletion(instance: instance.name, token: token, result: result, lane: lane))
            // Held from the call's queueing to its end, on the store's thread; a failed call lets go too.
            withExtendedLifetime(hold) {}
        }
        return false
    }

    /// A hold on the store that keeps it open between the calls that wait for the store's thread (the daemon takes one
    /// while store reloads wait there); give it back with `release(_:)`.
    func holdStore() -> StoreHold {
        store.hold()
    }

    /// Lets go of `hold` on the store's thread, after the calls queued there before: the last hold to go closes the
    /// store (and may checkpoint its write-ahead log) and unloads SQLite, work that must not hold up the loop.
    func release(_ hold: StoreHold) {
        Task(executorPreference: storeExecutor) { withExtendedLifetime(hold) {} }
    }
}

extension ProviderRunner {
    /// What a kind is told about `instance` for a call, a session or an intent at `now`.
    private static func context(of instance: WidgetInstance, now: Date, current: EntryContent?) -> ProviderContext {
        ProviderContext(
            instance: instance.name, family: instance.family, familyIsChosen: instance.familyIsChosen, now: now,
            timeZone: instance.timeZone ?? .current, current: current, settings: instance.settings)
    }

    /// `timeline` as `instance` shows it: whole, when its kind shows a bar's block and its config names no family.
    private static func shaped(_ timeline: Timeline, by kind: any WidgetKind, for instance: WidgetInstance) -> Timeline
    {
        kind.showsWholeTextWithoutFamily && !instance.familyIsChosen ? timeline.showingWholeText() : timeline
    }

    /// `kind`'s timeline computed at once, as a completion's result; nil when the kind has no such path.
    private static func immediateResult(
        _ kind: any WidgetKind, _ instance: WidgetInstance, _ context: ProviderContext
    ) -> Result<Timeline, ProviderFailure>? {
        do {
            return try kind.immediateTimeline(for: instance.intent, in: context).map {
                .success(shaped($0, by: kind, for: instance))
            }
        } catch {
            return .failure(ProviderFailure("\(error)"))
        }
    }

    /// Starts `instance`'s persistent provider; its updates are posted to the queue, tagged with `generation`.
    func startSession(_ instance: WidgetInstance, generation: UInt64, now: Date) throws -> any ProviderSession {
        guard let kind = registry.kind(named: instance.kind) else {
            throw ProviderFailure("unknown kind '\(instance.kind)'")
        }
        var context = Self.context(of: instance, now: now, current: nil)
        context.clock = clock
        let queue = self.queue
        let name = instance.name
        return try kind.startSession(for: instance.intent, in: context) { update in
            var update = update
            if case .timeline(let timeline) = update {
                update = .timeline(Self.shaped(timeline, by: kind, for: instance))
            }
            queue.post(.session(instance: name, generation: generation, update: update))
        }
    }

    /// Runs an intent off the loop thread; its outcome is posted to the queue.
    func perform(
        _ invocation: IntentInvocation, on instance: WidgetInstance, now: Date, current: EntryContent?,
        acknowledgement: ControlCommand.AckToken?
    ) {
        let queue = self.queue
        let clock = self.clock
        guard let kind = registry.kind(named: instance.kind) else { return }
        var context = Self.context(of: instance, now: now, current: current)
        let lane = lane(of: instance)
        let deadline = lane == .store ? now.addingTimeInterval(Self.storePatience) : nil
        // An intent reads the store more than once (the motivation, then its toggle): one open for all of them.
        let hold = lane == .store ? store.hold() : nil
        // In line with the widget's reloads and other clicks in the order they came (`start`).
        context.placeInLine = kind.placeInLine(for: instance.name, invocation: invocation)
        Task(executorPreference: lane == .commands ? commandIntentExecutor : executor(for: lane)) { [context] in
            let outcome: Result<IntentOutcome, IntentError>
            do {
                // Not started by its deadline (the store lane was busy): not run at all, so a `--wait` that hears
                // "failed" is never followed by the change landing later.
                if let deadline, clock.now >= deadline {
                    throw IntentError(
                        "not run: the store stayed locked by another process for \(Int(Self.storePatience)) s; "
                            + "nothing was changed")
                }
                var performed = try await StoreDeadline.$current.withValue(Self.wallClock(deadline, on: clock)) {
                    try await kind.perform(invocation, for: instance.intent, in: context)
                }
                performed.timeline = performed.timeline.map { Self.shaped($0, by: kind, for: instance) }
                outcome = .success(performed)
            } catch let error as IntentError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(IntentError("\(error)"))
            }
            queue.post(
                .intent(
                    IntentCompletion(
                        instance: instance.name, kind: instance.kind, intent: invocation.intent, outcome: outcome,
                        acknowledgement: acknowledgement, storeHold: hold, lane: lane)))
        }
    }
}
