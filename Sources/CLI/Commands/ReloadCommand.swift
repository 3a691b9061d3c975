import Config
import Control
import Kind
import Runtime
import Text
import Timelines

/// `widgetd reload`: write a `reload …` line to the daemon's FIFO, and with `--wait` wait for its entries and print
/// the new text of each widget reloaded.
enum ReloadCommand {
    static func run(
        target: ReloadTarget, wait: Bool, timeout: Double?, configPath: String, registry: KindRegistry,
        environment: [String: String], console: Console
    ) -> Int32 {
        let source = WidgetSource(configPath: configPath, environment: environment)
        switch target {
        case .all: break
        case .kind(let kind):
            guard registry.kind(named: kind) != nil else {
                console.report(
                    .unknown("kind", kind, among: registry.names, listing: "known kinds", command: .reload))
                return ExitCode.usage
            }
        case .instance(let name):
            // A name the config lacks is caught here rather than dropped by the daemon.
            if let problem = WidgetNameCheck.problem(with: name, in: source) {
                console.err("widgetd: error: \(problem)")
                return ExitCode.failure
            }
        }
        let paths = RunningDaemon.paths(environment: environment, settings: source.settings)
        do {
            if wait {
                let confirmed = try ControlClient.sendAndWait(
                    ControlCommand(.reload(target)), paths: paths.control,
                    timeout: .milliseconds(Int((timeout ?? 10) * 1000)))
                // What the reload brought: a named widget's text alone, else each widget's with its name.
                var named = true
                if case .instance = target { named = false }
                for line in ShownText.lines(
                    of: confirmed.widgets, in: paths.output, updates: paths.control.updates, named: named)
                { console.out(line) }
            } else {
                try ControlClient.send(ControlCommand(.reload(target)), fifo: paths.control.fifo)
            }
            return ExitCode.success
        } catch {
            // With --wait, the daemon's answer may quote a script's or plugin's message.
            console.err("widgetd: error: \(TerminalText.escaped("\(error)"))")
            return ExitCode.failure
        }
    }
}
