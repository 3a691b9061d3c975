import Config
import Control
import Kind

/// `widgetd click` and `widgetd intent`: write the FIFO line for the daemon, optionally waiting for its result.
enum ControlLineCommand {
    static func send(
        _ action: ControlCommand.Action, wait: Bool, configPath: String, registry: KindRegistry,
        environment: [String: String], console: Console
    ) -> Int32 {
        switch action {
        case .click(let instance, _, _, _, _), .intent(let instance, _, _):
            if let problem = WidgetNameCheck.problem(with: instance, configPath: configPath) {
                console.err("widgetd: error: \(problem)")
                return ExitCode.failure
            }
        default:
            break
        }
        let settings = ConfigLoader.load(path: configPath, registry: registry).configuration?.settings ?? Settings()
        let paths = RunningDaemon.paths(environment: environment, settings: settings)
        do {
            if wait {
                try ControlClient.sendAndWait(ControlCommand(action), paths: paths.control)
            } else {
                try ControlClient.send(ControlCommand(action), fifo: paths.control.fifo)
            }
            return ExitCode.success
        } catch {
            console.err("widgetd: error: \(error)")
            return ExitCode.failure
        }
    }
}
