import Config
import Control
import FoundationEssentials
import Kind
import Providers

/// Persistent providers (`interval: persist` commands): started by their instance's reload, kept running, their
/// updates shown at once, stopped with their whole process group when the instance changes or goes and when the
/// daemon stops.
extension Daemon {
    /// A reload of a persistent instance starts its provider when none runs; a running one is left alone, as i3blocks
    /// leaves a spawned persistent block. The reload is done either way: nothing waits for an answer.
    func reloadPersistent(_ instance: WidgetInstance, token: UInt64) {
        if let generation = supervisor.generationToStart(instance.name) {
            do {
                let session = try runner.startSession(instance, generation: generation, now: clock.now)
                supervisor.started(session, of: instance.name, generation: generation)
                log(.debug, "\(instance.name): started its persistent command")
            } catch {
                log(.warning, "\(instance.name): cannot start: \(error)")
                perform(engine.providerFailed(instance: instance.name, reason: "\(error)", now: clock.now))
            }
        }
        for done in reloads.reloadFinished(instance: instance.name, token: token) {
            acknowledge(done.token, failure: done.failure, widgets: done.widgets)
        }
    }

    /// An update from a persistent provider; one from a session already stopped is ignored.
    func handle(_ update: SessionUpdate, of name: String, generation: UInt64) {
        guard supervisor.isCurrent(name, generation: generation) else { return }
        let now = clock.now
        // A persistent command's lines come as fast as it prints them: what they make the daemon say is limited per
        // widget, as every other source's is (a bad line five times a second logged five lines a second for good).
        switch update {
        case .timeline(let timeline):
            for note in timeline.notes { log(.warning, from: name, "\(name): \(note)") }
            perform(engine.install(timeline, for: name, now: now))
            writeStatus(of: name, now: now)
        case .stopped(let reason):
            log(.warning, from: name, "\(name): \(reason)")
            perform(engine.providerFailed(instance: name, reason: reason, now: now))
            writeStatus(of: name, now: now)
        case .unusable(let reason):
            log(.warning, from: name, "\(name): \(reason)")
            // A script printing the same bad line again changes nothing more: no record or status file per line.
            guard engine.timeline(of: name)?.failure != reason else { return }
            perform(engine.providerFailed(instance: name, reason: reason, now: now))
            writeStatus(of: name, now: now)
        case .note(let note):
            log(.warning, from: name, "\(name): \(note)")
        }
    }

    /// Hands a click to the instance's running persistent provider; false when the instance has none.
    func deliverToSession(
        _ invocation: IntentInvocation, of instance: WidgetInstance, _ token: ControlCommand.AckToken?
    ) -> Bool {
        guard instance.runMode.isPersistent else { return false }
        // No session, or one that could not take the click: either way the click is dropped, and its answer says why.
        let refused =
            supervisor.session(of: instance.name).map { $0.deliver(invocation) }
            ?? "its persistent command is not running"
        if let refused {
            let reason = "\(instance.name): \(refused)"
            log(.warning, from: instance.name, "\(reason); click dropped")
            token.map { acknowledge($0, failure: reason) }
            return true
        }
        log(.info, from: instance.name, "\(instance.name): click sent to its persistent command")
        token.map { acknowledge($0, widgets: [instance.name]) }
        return true
    }

    func stopSession(of name: String) {
        guard let running = supervisor.removeSession(of: name) else { return }
        running.stop()
        log(.debug, "\(name): stopped its persistent command")
    }

    func stopAllSessions() {
        for name in supervisor.sessionNames { stopSession(of: name) }
    }
}
