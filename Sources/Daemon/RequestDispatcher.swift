import Config
import Control
import Kind
import Text
import Timelines

/// Turns what the control FIFO gave (a line, or a line it refused) into the daemon's requests (`DaemonRequest`):
/// reloads, a config reload, a click's command or intent, an intent with its parameters read as the kind declares
/// them. A line that is not a request, or names a widget, button or intent that does not exist, becomes a log line
/// (limited per writer) and, when it carries a token, a failed acknowledgement: nothing a writer sends stops the
/// daemon.
///
/// It decides only; it reads the engine's instances and the kinds, and changes nothing, so the daemon's loop stays
/// the one owner of the engine and the files.
struct RequestDispatcher {
    var registry: KindRegistry

    /// The requests one result of reading the FIFO makes.
    func requests(for result: ControlLineResult, in engine: Engine<WidgetInstance>) -> [DaemonRequest] {
        switch result {
        case .rejected(let reason):
            return [.log(.warning, "control FIFO: dropped a line: \(reason)", limited: true)]
        case .line(let line):
            do {
                return requests(for: try ControlCommand.parse(line), line: line, in: engine)
            } catch {
                // The excerpt is escaped and cut, and so is the reason, which may quote the line.
                return [
                    .log(
                        .warning,
                        "control FIFO: dropped '\(LogText.excerpt(line))': \(LogText.excerpt("\(error)", limit: 160))",
                        limited: true)
                ]
            }
        }
    }

    /// The requests `command`, read as `line`, makes. A reload quotes the line as it was read, for the log when it
    /// names no widget: `command.line` would write it out again, on the reload's way to its file.
    func requests(for command: ControlCommand, line: String, in engine: Engine<WidgetInstance>) -> [DaemonRequest] {
        switch command.action {
        case .reload(let target):
            return [.reload(target, acknowledgement: command.acknowledgement, line: line)]
        case .config:
            return [.reloadConfiguration(acknowledgement: command.acknowledgement)]
        case .click(let name, let button, let relativeX, let width, let details):
            return click(
                name, button: button, relativeX: relativeX, width: width, details: details, command.acknowledgement,
                in: engine)
        case .intent(let name, let intent, let parameters):
            return run(
                intent, on: name, parameters: parameters.map { ($0.name, $0.value) }, command.acknowledgement,
                in: engine)
        }
    }

    /// A click: the instance's `on_click:` binding for the button, else its kind's default intent.
    private func click(
        _ name: String, button number: Int, relativeX: Int?, width: Int?, details: ControlCommand.ClickDetails,
        _ token: ControlCommand.AckToken?, in engine: Engine<WidgetInstance>
    ) -> [DaemonRequest] {
        func drop(_ reason: String) -> [DaemonRequest] {
            [.log(.warning, "\(reason): dropped", limited: true)] + answer(token, failure: reason)
        }
        guard let instance = engine.instance(named: name), let kind = registry.kind(named: instance.kind) else {
            return drop("click on unknown widget '\(LogText.excerpt(name))'")
        }
        guard let button = MouseButton(number: number) else {
            return drop("click on '\(name)' with button \(number): buttons are 1 to 5")
        }
        let action = instance.onClick[button] ?? kind.defaultIntent(for: button).map(ClickAction.intent)
        switch action {
        case nil:
            // Bars send every button, so this is common and only informational; a `--wait` is told, as it asked
            // for something to happen.
            let reason = Self.nothingBound(to: button, of: instance, kind: kind)
            return [.log(.info, "\(reason); click dropped", limited: true)] + answer(token, failure: reason)
        case .command(let argv)?:
            return [.startCommand(argv, instance: name, button: button, acknowledgement: token)]
        case .intent(let intent)?:
            guard let spec = kind.intent(named: intent) else {
                let reason = "\(name): kind '\(kind.name)' has no intent '\(intent)'"
                return [.log(.warning, reason, limited: true)] + answer(token, failure: reason)
            }
            var invocation = IntentInvocation(
                intent: intent,
                click: ClickLocation(
                    button: button, relativeX: relativeX, width: width, x: details.x, y: details.y,
                    relativeY: details.relativeY, height: details.height, modifiers: details.modifiers))
            invocation.parameters = (try? kind.intentParameters([], for: spec)) ?? IntentValues()
            return [
                .log(.debug, "\(name): \(button.rawValue) click runs \(intent)", limited: false),
                .performClick(invocation, on: instance, acknowledgement: token),
            ]
        }
    }

    /// An `intent NAME INTENT key=value…` line, its parameters read as the intent declares them.
    private func run(
        _ intent: String, on name: String, parameters: [(name: String, value: String)],
        _ token: ControlCommand.AckToken?, in engine: Engine<WidgetInstance>
    ) -> [DaemonRequest] {
        guard let instance = engine.instance(named: name), let kind = registry.kind(named: instance.kind) else {
            let reason = "intent '\(LogText.excerpt(intent))' for unknown widget '\(LogText.excerpt(name))'"
            return [.log(.warning, "\(reason): dropped", limited: true)] + answer(token, failure: reason)
        }
        guard let spec = kind.intent(named: intent) else {
            let names = kind.intents.map(\.name)
            let reason =
                "\(name): unknown intent '\(LogText.excerpt(intent))' for kind '\(kind.name)'"
                + Suggestion.didYouMean(intent, in: names, then: "intents: \(names.joined(separator: ", "))")
            return [.log(.warning, "\(reason); dropped", limited: true)] + answer(token, failure: reason)
        }
        do {
            let values = try kind.intentParameters(parameters, for: spec)
            return [
                .performIntent(
                    IntentInvocation(intent: intent, parameters: values), on: instance, acknowledgement: token)
            ]
        } catch {
            return [
                .log(
                    .warning, "\(name): \(intent): \(LogText.excerpt("\(error)", limit: 160)); dropped",
                    limited: true)
            ] + answer(token, failure: "\(name): \(intent): \(error)")
        }
    }

    /// Why a click on `button` does nothing, with the buttons that do something, so the user sees which to press.
    static func nothingBound(to button: MouseButton, of instance: WidgetInstance, kind: any WidgetKind) -> String {
        let bound = MouseButton.allCases.filter { instance.onClick[$0] != nil || kind.defaultIntent(for: $0) != nil }
        let others =
            bound.isEmpty
            ? "nor to any other ('on_click:' binds one)" : "bound: \(bound.map(\.rawValue).joined(separator: ", "))"
        return "\(instance.name): nothing is bound to the \(button.rawValue) button (\(others))"
    }

    /// An acknowledgement for `token`, when the line carried one.
    private func answer(_ token: ControlCommand.AckToken?, failure: String? = nil) -> [DaemonRequest] {
        token.map { [.acknowledge($0, failure: failure)] } ?? []
    }
}
