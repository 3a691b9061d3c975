import FoundationEssentials
import Providers
import Timelines

/// What provider threads hand back through `CompletionQueue`: timelines, intents' outcomes, persistent commands'
/// updates and plugins' events, taken in on the loop's thread.
extension Daemon {
    func handleCompletions() {
        for item in completions.drain() {
            switch item {
            case .timeline(let completion):
                reloads.callFinished(on: completion.lane)
                handle(completion)
            case .intent(let completion): handle(completion)
            case .session(let name, let generation, let update): handle(update, of: name, generation: generation)
            case .plugin(let event): handle(event)
            case .pluginsRetried(let found): handleRetriedPlugins(found)
            }
        }
        startWaitingReloads()
    }

    /// Takes in the timelines kinds gave at once on this thread (`ProviderRunner.start`), and what provider threads
    /// posted meanwhile, before the loop sleeps, so a reload's file is written in the turn that asked for it, with no
    /// wake-up. Once per turn: what that starts is left to the next turn, which does not sleep first
    /// (`CompletionQueue.loopMaySleep`), so a timeline that asks again at once cannot hold the loop.
    func takeInImmediateAnswers() {
        guard completions.hasPending else { return }
        handleCompletions()
    }

    private func handle(_ completion: ProviderCompletion) {
        guard engine.isAwaiting(instance: completion.instance, token: completion.token) else { return }
        // A provider's messages come from outside (a script's output): limited per widget.
        switch completion.result {
        case .failure(let failure):
            log(.warning, from: completion.instance, "\(completion.instance): \(failure.message)")
        case .success(let timeline):
            for note in timeline.notes { log(.warning, from: completion.instance, "\(completion.instance): \(note)") }
        }
        let now = clock.now
        perform(
            engine.completed(
                instance: completion.instance, token: completion.token, result: completion.result, now: now))
        writeStatus(of: completion.instance, now: now)
        if case .success = completion.result { remember(completion.instance) }
        var failure: String?
        if case .failure(let reason) = completion.result { failure = "\(completion.instance): \(reason.message)" }
        // A timeline that could not be written is no success either: the bars do not show it.
        failure = failure ?? outputRetry.failure(of: completion.instance)
        for done in reloads.reloadFinished(instance: completion.instance, token: completion.token, failure: failure) {
            acknowledge(done.token, failure: done.failure, widgets: done.widgets)
        }
    }

    /// An intent ran: reload what it changed, acknowledging once those reloads are written. What it says is logged
    /// under the widget's limit, as its provider's messages are: a click is anyone's to send, 2,000 a second.
    private func handle(_ completion: IntentCompletion) {
        if completion.lane == .commands { reloads.commandIntentFinished() }
        let now = clock.now
        // Given back once the reloads below have started (each takes a hold of its own as it is queued): a click
        // on a store widget then opens the store, and loads SQLite, once for its write and the reads it causes.
        defer { completion.storeHold.map { runner.release($0) } }
        switch completion.outcome {
        case .success(let outcome):
            log(
                .info, from: completion.instance,
                "\(completion.instance): \(completion.intent): \(LogText.excerpt(outcome.message))")
            if let command = outcome.command {
                // The button is the one that binds the kind's click intent: the left.
                carryOut(
                    .startCommand(
                        command, instance: completion.instance, button: .left,
                        acknowledgement: completion.acknowledgement))
                return
            }
            if let timeline = outcome.timeline {
                perform(engine.install(timeline, for: completion.instance, now: now))
                writeStatus(of: completion.instance, now: now)
                completion.acknowledgement.map {
                    acknowledge(
                        $0, failure: outputRetry.failure(of: completion.instance), widgets: [completion.instance])
                }
                return
            }
            let target: ReloadTarget =
                outcome.reloadsKind ? .kind(completion.kind) : .instance(completion.instance)
            request(target, acknowledgement: completion.acknowledgement, now: now)
            // Started now, not at the end of the turn, so that they find the store still held.
            perform(engine.advance(now: now))
        case .failure(let error):
            let reason = "\(completion.instance): \(completion.intent) failed: \(error)"
            log(
                .warning, from: completion.instance,
                "\(completion.instance): \(completion.intent) failed: \(LogText.excerpt("\(error)"))")
            completion.acknowledgement.map { acknowledge($0, failure: reason) }
        }
    }
}
