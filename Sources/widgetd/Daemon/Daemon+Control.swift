import FoundationEssentials
import Glibc
import Providers
import Scheduler

/// The daemon's control FIFO: reloads, clicks and intents.
extension Daemon {
    // MARK: - Clicks and intents

    /// A click: the instance's `on_click:` binding for the button, else its kind's default intent.
    private func click(
        _ name: String, button number: Int, relativeX: Int?, width: Int?, details: ControlCommand.ClickDetails,
        _ token: ControlCommand.AckToken?, now: Date
    ) {
        defer { reapChildren() }
        guard let instance = engine.instance(named: name), let kind = registry.kind(named: instance.kind),
            let button = MouseButton(number: number)
        else {
            let reason = "click on unknown widget '\(LogText.excerpt(name))' (or button \(number))"
            log(.warning, from: Self.fifoSource, "\(reason): dropped")
            token.map { acknowledge($0, failure: reason) }
            return
        }
        let action = instance.onClick[button] ?? kind.defaultIntent(for: button).map(ClickAction.intent)
        switch action {
        case nil:
            log(.info, from: Self.fifoSource, "\(name): nothing is bound to the \(button.rawValue) button")
            token.map { acknowledge($0) }
        case .command(let argv)?:
            do {
                children.insert(
                    try DetachedCommand.spawn(SessionEnvironment.clickCommand(argv, environment: environment)))
                log(
                    .info, from: Self.fifoSource,
                    "\(name): \(button.rawValue) click started \(argv.joined(separator: " "))")
                token.map { acknowledge($0) }
            } catch {
                log(.warning, "\(name): \(error)")
                token.map { acknowledge($0, failure: "\(name): \(error)") }
            }
        case .intent(let intent)?:
            guard let spec = kind.intent(named: intent) else {
                let reason = "\(name): kind '\(kind.name)' has no intent '\(intent)'"
                log(.warning, from: Self.fifoSource, reason)
                token.map { acknowledge($0, failure: reason) }
                return
            }
            var invocation = IntentInvocation(
                intent: intent,
                click: ClickLocation(
                    button: button, relativeX: relativeX, width: width, x: details.x, y: details.y,
                    relativeY: details.relativeY, height: details.height, modifiers: details.modifiers))
            invocation.parameters = (try? kind.intentParameters([], for: spec)) ?? IntentValues()
            log(.debug, "\(name): \(button.rawValue) click runs \(intent)")
            if deliverToSession(invocation, of: instance, token) { return }
            runner.perform(
                invocation, on: instance, now: now, current: engine.content(of: name, at: now), acknowledgement: token)
        }
    }

    /// An `intent NAME INTENT key=value…` line, its parameters read as the intent declares them.
    private func run(
        _ intent: String, on name: String, parameters: [(name: String, value: String)],
        _ token: ControlCommand.AckToken?, now: Date
    ) {
        guard let instance = engine.instance(named: name), let kind = registry.kind(named: instance.kind) else {
            let reason = "intent '\(LogText.excerpt(intent))' for unknown widget '\(LogText.excerpt(name))'"
            log(.warning, from: Self.fifoSource, "\(reason): dropped")
            token.map { acknowledge($0, failure: reason) }
            return
        }
        guard let spec = kind.intent(named: intent) else {
            let names = kind.intents.map(\.name)
            let reason =
                "\(name): unknown intent '\(LogText.excerpt(intent))' for kind '\(kind.name)'"
                + Suggestion.didYouMean(intent, in: names, then: "intents: \(names.joined(separator: ", "))")
            log(.warning, from: Self.fifoSource, "\(reason); dropped")
            token.map { acknowledge($0, failure: reason) }
            return
        }
        do {
            let values = try kind.intentParameters(parameters, for: spec)
            runner.perform(
                IntentInvocation(intent: intent, parameters: values), on: instance, now: now,
                current: engine.content(of: name, at: now), acknowledgement: token)
        } catch {
            log(
                .warning, from: Self.fifoSource,
                "\(name): \(intent): \(LogText.excerpt("\(error)", limit: 160)); dropped")
            token.map { acknowledge($0, failure: "\(name): \(intent): \(error)") }
        }
    }

    func reapChildren() {
        children = DetachedCommand.reap(children)
        // Orphans of commands reparented to the daemon (it is their subreaper) and since ended.
        ProcessHygiene.reapOrphans()
    }

    // MARK: - Control FIFO

    /// The log source of everything a FIFO line causes: whoever can write the FIFO cannot flood the log.
    static let fifoSource = "control FIFO"

    func handleControlLines() {
        guard let fifo else { return }
        for result in fifo.readLines() {
            switch result {
            case .rejected(let reason):
                log(.warning, from: Self.fifoSource, "control FIFO: dropped a line: \(reason)")
            case .line(let line):
                do {
                    handle(try ControlCommand.parse(line))
                } catch {
                    // The excerpt is escaped and cut, and so is the reason, which may quote the line.
                    log(
                        .warning, from: Self.fifoSource,
                        "control FIFO: dropped '\(LogText.excerpt(line))': \(LogText.excerpt("\(error)", limit: 160))")
                }
            }
        }
        if !fifo.isOpen {
            log(.error, "the control FIFO could not be opened again after its writers left: making it again")
            repairRuntime()
        }
    }

    private func handle(_ command: ControlCommand) {
        let now = Date()
        switch command.action {
        case .reloadAll:
            request(.all, command, now: now)
        case .reloadKind(let kind):
            request(.kind(kind), command, now: now)
        case .reloadInstance(let name):
            request(.instance(name), command, now: now)
        case .config:
            reloadConfiguration()
            command.acknowledgement.map { acknowledge($0) }
        case .click(let name, let button, let relativeX, let width, let details):
            click(
                name, button: button, relativeX: relativeX, width: width, details: details, command.acknowledgement,
                now: now)
        case .intent(let name, let intent, let parameters):
            run(intent, on: name, parameters: parameters.map { ($0.name, $0.value) }, command.acknowledgement, now: now)
        }
    }

    private func request(_ target: ReloadTarget, _ command: ControlCommand, now: Date) {
        if !request(target, acknowledgement: command.acknowledgement, now: now) {
            log(.warning, from: Self.fifoSource, "'\(LogText.excerpt(command.line))' names no widget")
        }
    }

    /// Asks for reloads; with a token, acknowledges once every reload it caused is written.
    /// - Returns: false when the target matched no widget.
    @discardableResult
    func request(_ target: ReloadTarget, acknowledgement: ControlCommand.AckToken?, now: Date) -> Bool {
        let issuedBefore = engine.lastIssuedToken
        let names = engine.request(target, now: now)
        log(
            .debug,
            "reload requested: \(names.count <= 8 ? names.joined(separator: ", ") : "\(names.count) widgets")"
                + (acknowledgement.map { " (ack \($0))" } ?? ""))
        if let acknowledgement {
            if names.isEmpty {
                acknowledge(acknowledgement, failure: "no widget matches the request")
            } else if acknowledgements.count >= AcknowledgementBook.limit {
                // The reloads still happen (coalesced); only the confirmation is refused, to bound what is held.
                acknowledge(
                    acknowledgement,
                    failure: "too many requests are waiting to be confirmed (\(AcknowledgementBook.limit)); "
                        + "the reload was requested but will not be confirmed")
            } else {
                acknowledgements.wait(acknowledgement, for: names, after: issuedBefore)
            }
        }
        return !names.isEmpty
    }
}
