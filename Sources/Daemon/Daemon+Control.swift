import Config
import Control
import FoundationEssentials
import Glibc
import Kind
import Providers
import Text
import Timelines

/// The daemon's control FIFO: each line's requests (`RequestDispatcher` decides them) carried out, and reload requests
/// from anywhere (the FIFO, signals, plugins, intents) made with their acknowledgements.
extension Daemon {
    func reapChildren() {
        for (started, status) in clickCommands.reap() {
            let failure = ClickCommands.failure(
                of: started, status: status, hasDisplay: SessionEnvironment.hasDisplay(environment))
            // One that fails at once is a click that did nothing; a program closed later with an error is only noted.
            let atOnce = clock.now.timeIntervalSince(started.started) <= ClickCommands.grace
            if let failure { log(atOnce ? .warning : .info, from: started.instance, failure) }
            started.token.map { acknowledge($0, failure: failure, widgets: [started.instance]) }
        }
        // Orphans of commands reparented to the daemon (it is their subreaper) and since ended.
        ProcessHygiene.reapOrphans()
    }

    /// Answers the waiting clicks whose commands have run long enough to count as started (`ClickCommands.grace`).
    func answerClickCommandsWhenDue(now: Date) {
        guard let due = clickCommands.nextAnswer, due <= now else { return }
        for started in clickCommands.takeDueAnswers(now: now) {
            started.token.map { acknowledge($0, widgets: [started.instance]) }
        }
    }

    // MARK: - Control FIFO

    /// The log source of everything a FIFO line causes: whoever can write the FIFO cannot flood the log.
    static let fifoSource = "control FIFO"

    /// How many `on_click` commands may run at once; a click past that is refused, and said so.
    static let clickCommandsAtOnce = 64

    /// Reads what the FIFO holds and carries out the requests each line makes (`RequestDispatcher`), in order; a run
    /// of `config` lines is one re-read, and the line after it is decided against the config it brought
    /// (`ConfigRereads`).
    func handleControlLines() {
        guard let fifo else { return }
        var rereads = ConfigRereads()
        func rereadHeld() {
            guard let acknowledgements = rereads.takeReread() else { return }
            reloadConfiguration()
            for acknowledgement in acknowledgements { acknowledge(acknowledgement) }
        }
        for result in fifo.readLines() {
            var requests = dispatcher.requests(for: result, in: engine)
            if rereads.hold(requests) { continue }
            if rereads.isHolding {
                rereadHeld()
                requests = dispatcher.requests(for: result, in: engine)
            }
            for request in requests { carryOut(request) }
        }
        rereadHeld()
        if !fifo.isOpen {
            log(.error, "the control FIFO could not be opened again after its writers left: making it again")
            repairRuntime()
        }
    }

    /// Does what a request asks: the dispatcher decided, the loop acts on the engine, the provider threads and the
    /// files.
    func carryOut(_ request: DaemonRequest) {
        let now = clock.now
        switch request {
        case .reload(let target, let acknowledgement, let line):
            if !self.request(target, acknowledgement: acknowledgement, now: now) {
                log(.warning, from: Self.fifoSource, "'\(LogText.excerpt(line))' names no widget")
            }
        case .reloadConfiguration(let acknowledgement):
            reloadConfiguration()
            acknowledgement.map { acknowledge($0) }
        case .startCommand(let argv, let name, let button, let token):
            defer { reapChildren() }
            reapChildren()
            // A flood of click lines (a FIFO read holds up to 1 MiB of them) must not start a process each at once.
            guard clickCommands.count < Self.clickCommandsAtOnce else {
                let failure =
                    "\(name): \(button.rawValue) click not started: \(Self.clickCommandsAtOnce) click commands are "
                    + "still running"
                return refuse(failure, from: Self.fifoSource, token)
            }
            do {
                let pid = try DetachedCommand.spawn(
                    SessionEnvironment.clickCommand(argv, environment: environment), environment: environment)
                // Answered when it exits or has run a moment (`ClickCommands`): a started process may still fail.
                clickCommands.add(
                    pid,
                    ClickCommands.Started(
                        instance: name, button: button, program: argv.first ?? "", token: token, started: now))
                log(
                    .info, from: Self.fifoSource,
                    "\(name): \(button.rawValue) click started \(argv.joined(separator: " "))")
            } catch {
                log(.warning, from: Self.fifoSource, "\(name): \(LogText.excerpt("\(error)"))")
                token.map { acknowledge($0, failure: "\(name): \(error)") }
            }
        case .performClick(let invocation, let instance, let token):
            defer { reapChildren() }
            if deliverToSession(invocation, of: instance, token) { return }
            perform(invocation, on: instance, token, now: now)
        case .performIntent(let invocation, let instance, let token):
            perform(invocation, on: instance, token, now: now)
        case .acknowledge(let token, let failure):
            acknowledge(token, failure: failure)
        case .log(let level, let message, limited: true):
            log(level, from: Self.fifoSource, message)
        case .log(let level, let message, limited: false):
            log(level, message)
        }
    }

    /// Logs why a request was not carried out, and answers its `--wait` (`token`) with the same.
    private func refuse(_ failure: String, from source: String, _ token: ControlCommand.AckToken?) {
        log(.warning, from: source, failure)
        token.map { acknowledge($0, failure: failure) }
    }

    /// Runs a click's or an intent's intent on the provider threads. A command widget's take a thread each, and a flood
    /// of clicks would queue behind them without end, holding every `--wait` behind it: past
    /// `ReloadDispatcher.commandIntentsAtOnce` waiting or running, one is refused, and said so, as a click's command
    /// is.
    private func perform(
        _ invocation: IntentInvocation, on instance: WidgetInstance, _ token: ControlCommand.AckToken?, now: Date
    ) {
        if runner.lane(of: instance) == .commands {
            guard reloads.admitCommandIntent() else {
                let limit = ReloadDispatcher.commandIntentsAtOnce
                let failure =
                    "\(instance.name): \(invocation.intent) not run: \(limit) clicks and intents on command widgets "
                    + "are still waiting or running"
                return refuse(failure, from: instance.name, token)
            }
        }
        runner.perform(
            invocation, on: instance, now: now, current: engine.content(of: instance.name, at: now),
            acknowledgement: token)
    }

    /// A reload target as a user wrote it: `'name'`, `kind 'quotes'`, `all`.
    static func describe(_ target: ReloadTarget) -> String {
        switch target {
        case .all: "all"
        case .kind(let kind): "kind '\(LogText.excerpt(kind))'"
        case .instance(let name): "'\(LogText.excerpt(name))'"
        }
    }

    /// Asks for reloads; with a token, acknowledges once every reload it caused is written.
    /// - Returns: false when the target matched no widget.
    @discardableResult
    func request(_ target: ReloadTarget, acknowledgement: ControlCommand.AckToken?, now: Date) -> Bool {
        let issuedBefore = engine.lastIssuedToken
        let names = engine.request(target, now: now)
        let requested =
            names.isEmpty
            ? "nothing matches \(Self.describe(target))"
            : names.count <= 8 ? names.joined(separator: ", ") : "\(names.count) widgets"
        log(.debug, "reload requested: \(requested)" + (acknowledgement.map { " (ack \($0))" } ?? ""))
        if let acknowledgement {
            switch reloads.acknowledge(acknowledgement, whenReloaded: names, issuedBefore: issuedBefore) {
            case nil: break
            case .matchesNothing?:
                // A widget just added to a file that does not check is not in the config the daemon runs: say so, or
                // the user looks for a typo that is not there.
                let errors = presence.configErrors
                let stale =
                    errors > 0
                    ? "; \(configPath) has \(counted(errors, "error")), so the daemon runs the previous config" : ""
                acknowledge(
                    acknowledgement,
                    failure: "no widget of the running config matches \(Self.describe(target))\(stale)")
            case .tooManyWaiting?:
                // The reloads still happen (coalesced); only the confirmation is refused, to bound what is held.
                acknowledge(
                    acknowledgement,
                    failure: "too many requests are waiting to be confirmed (\(AcknowledgementBook.limit)); "
                        + "the reload was requested but will not be confirmed")
            }
        }
        return !names.isEmpty
    }
}
