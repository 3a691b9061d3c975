import Foundation
import Scheduler
import Synchronization

/// A provider call that finished (or timed out), waiting for the loop to hand it to the engine.
struct ProviderCompletion: Sendable {
    var instance: String
    var token: UInt64
    var result: Result<Timeline, ProviderFailure>
    /// The call ran a command on a thread of its own (`exec`), not on the provider pool.
    var ranCommand = false
}

/// An intent that finished running.
struct IntentCompletion: Sendable {
    var instance: String
    var kind: String
    var intent: String
    var outcome: Result<IntentOutcome, IntentError>
    var acknowledgement: ControlCommand.AckToken?
}

/// What provider and intent tasks hand back to the loop thread.
enum Completion: Sendable {
    case timeline(ProviderCompletion)
    case intent(IntentCompletion)
    /// A persistent provider's update; `generation` tells a stopped session's last words from the current one's.
    case session(instance: String, generation: UInt64, update: SessionUpdate)
}

/// Results handed from tasks to the loop thread: a locked queue plus a wake-up for poll().
final class CompletionQueue: Sendable {
    private let items = Mutex<[Completion]>([])
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    func post(_ completion: ProviderCompletion) {
        post(.timeline(completion))
    }

    func post(_ completion: Completion) {
        items.withLock { $0.append(completion) }
        wake()
    }

    func drain() -> [Completion] {
        items.withLock { items in
            // Not keeping capacity: a start-up burst of 10,000 results would otherwise stay allocated for good.
            defer { items = [] }
            return items
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
    let registry: KindRegistry
    let queue: CompletionQueue
    let executor: ProviderExecutor
    /// As many threads as the daemon lets command reloads run at once (`Daemon.commandReloads`), so a reload never
    /// waits here after its timeout has started.
    let commandExecutor = CommandExecutor(maximumThreads: 64)
    /// Clicks and intents on command widgets: threads of their own, so a burst of clicks on a slow script holds up
    /// no reload; past 16 running, clicks wait their turn.
    let commandIntentExecutor = CommandExecutor(maximumThreads: 16)

    private func executor(for instance: WidgetInstance) -> any TaskExecutor {
        instance.runMode.blocksThread ? commandExecutor : executor
    }

    /// Starts `instance`'s timeline call; its result is posted to the queue with `token`.
    func start(_ instance: WidgetInstance, token: UInt64, now: Date, current: EntryContent?) {
        guard let kind = registry.kind(named: instance.kind) else {
            queue.post(
                ProviderCompletion(
                    instance: instance.name, token: token,
                    result: .failure(ProviderFailure("unknown kind '\(instance.kind)'")),
                    ranCommand: instance.runMode.blocksThread))
            return
        }
        let context = ProviderContext(
            instance: instance.name, family: instance.family, familyIsChosen: instance.familyIsChosen, now: now,
            timeZone: instance.timeZone ?? .current,
            current: current, settings: instance.settings)
        let queue = self.queue
        let ranCommand = instance.runMode.blocksThread
        Task(executorPreference: executor(for: instance)) {
            let result: Result<Timeline, ProviderFailure>
            do {
                result = .success(try await kind.timeline(for: instance.intent, in: context))
            } catch {
                result = .failure(ProviderFailure("\(error)"))
            }
            queue.post(
                ProviderCompletion(instance: instance.name, token: token, result: result, ranCommand: ranCommand))
        }
    }
}

extension ProviderRunner {
    /// Starts `instance`'s persistent provider; its updates are posted to the queue, tagged with `generation`.
    func startSession(_ instance: WidgetInstance, generation: UInt64, now: Date) throws -> any ProviderSession {
        guard let kind = registry.kind(named: instance.kind) else {
            throw ProviderFailure("unknown kind '\(instance.kind)'")
        }
        let context = ProviderContext(
            instance: instance.name, family: instance.family, familyIsChosen: instance.familyIsChosen, now: now,
            timeZone: instance.timeZone ?? .current, settings: instance.settings)
        let queue = self.queue
        let name = instance.name
        return try kind.startSession(for: instance.intent, in: context) { update in
            queue.post(.session(instance: name, generation: generation, update: update))
        }
    }

    /// Runs an intent off the loop thread; its outcome is posted to the queue.
    func perform(
        _ invocation: IntentInvocation, on instance: WidgetInstance, now: Date, current: EntryContent?,
        acknowledgement: ControlCommand.AckToken?
    ) {
        let queue = self.queue
        guard let kind = registry.kind(named: instance.kind) else { return }
        let context = ProviderContext(
            instance: instance.name, family: instance.family, familyIsChosen: instance.familyIsChosen, now: now,
            timeZone: instance.timeZone ?? .current,
            current: current, settings: instance.settings)
        Task(executorPreference: instance.runMode.blocksThread ? commandIntentExecutor : executor) {
            let outcome: Result<IntentOutcome, IntentError>
            do {
                outcome = .success(try await kind.perform(invocation, for: instance.intent, in: context))
            } catch let error as IntentError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(IntentError("\(error)"))
            }
            queue.post(
                .intent(
                    IntentCompletion(
                        instance: instance.name, kind: instance.kind, intent: invocation.intent, outcome: outcome,
                        acknowledgement: acknowledgement)))
        }
    }
}
