import Config
import Control
import Kind
import Runtime
import Text

/// `widgetd click` and `widgetd intent`: write the FIFO line for the daemon; with `--wait`, wait for its result and
/// print what the widget shows then, or exit 1 with why nothing happened (nothing bound to the button, a command
/// that could not start, a failed intent).
enum ControlLineCommand {
    static func send(
        _ action: ControlCommand.Action, wait: Bool, configPath: String, registry: KindRegistry,
        environment: [String: String], console: Console
    ) -> Int32 {
        let source = WidgetSource(configPath: configPath, environment: environment)
        switch action {
        case .click(let instance, _, _, _, _), .intent(let instance, _, _):
            if let problem = WidgetNameCheck.problem(with: instance, in: source) {
                console.err("widgetd: error: \(problem)")
                return ExitCode.failure
            }
        default:
            break
        }
        if case .intent(let instance, let intent, let parameters) = action,
            let problem = intentProblem(
                intent, on: instance, parameters: parameters,
                configuration: source.load(registry: registry).configuration, registry: registry)
        {
            console.err("widgetd: error: \(problem)")
            return ExitCode.failure
        }
        let paths = RunningDaemon.paths(environment: environment, settings: source.settings)
        do {
            if wait {
                try ControlClient.sendAndWait(ControlCommand(action), paths: paths.control)
                // What the widget shows now: the click's or intent's result, or, for a click on a command, the
                // widget as it was.
                if case .click(let instance, _, _, _, _) = action,
                    let text = ShownText.of(instance, in: paths.output, updates: paths.control.updates)
                {
                    console.out(text)
                } else if case .intent(let instance, _, _) = action,
                    let text = ShownText.of(instance, in: paths.output, updates: paths.control.updates)
                {
                    console.out(text)
                }
            } else {
                try ControlClient.send(ControlCommand(action), fifo: paths.control.fifo)
            }
            return ExitCode.success
        } catch {
            // With --wait, the daemon's answer may quote a script's or plugin's message.
            console.err("widgetd: error: \(TerminalText.escaped("\(error)"))")
            return ExitCode.failure
        }
    }

    /// Why the daemon would drop this intent line, checked as it checks it (`RequestDispatcher`): an intent the
    /// widget's kind lacks, a parameter the intent lacks, a value of the wrong type. Without `--wait` the daemon's
    /// answer reaches only its log, so the command would exit 0 for nothing done. Nil when it is fine, or when the
    /// config has errors or the kind is unknown here (a plugin this CLI does not see): the daemon decides then.
    private static func intentProblem(
        _ intent: String, on instance: String, parameters: [ControlCommand.Parameter],
        configuration: Configuration?, registry: KindRegistry
    ) -> String? {
        guard let widget = configuration?.widgets.first(where: { $0.name == instance }),
            let kind = registry.kind(named: widget.kind)
        else { return nil }
        guard let spec = kind.intent(named: intent) else {
            let names = kind.intents.map(\.name)
            let hint = Suggestion.didYouMean(intent, in: names)
            let list = names.isEmpty ? "it has none" : "intents: \(names.joined(separator: ", "))"
            return "kind '\(kind.name)' of widget '\(instance)' has no intent '\(intent)'"
                + (hint.isEmpty ? "; " + list : hint)
        }
        do {
            _ = try kind.intentParameters(parameters.map { ($0.name, $0.value) }, for: spec)
            return nil
        } catch {
            return "\(instance): \(intent): \(error)"
        }
    }
}
