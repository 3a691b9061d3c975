import Foundation
import Providers
import Scheduler

/// The `widgetd` executable: parse the command line, run one command, exit with its code.
@main
struct WidgetdMain {
    static func main() async {
        let code = await run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
        exit(code)
    }

    static func run(
        _ arguments: [String], environment: [String: String], console: Console = .standard,
        registry: KindRegistry = .standard
    ) async -> Int32 {
        let command: Command
        do {
            command = try CommandLineParser.parse(arguments)
        } catch {
            console.report(error)
            return ExitCode.usage
        }
        switch command {
        case .help(let topic):
            console.out(Help.text(for: topic))
            return ExitCode.success
        case .version:
            console.out("widgetd \(version)")
            return ExitCode.success
        case .check(let path):
            return CheckCommand.run(
                configPath: ConfigPath.resolve(explicit: path, environment: environment), registry: registry,
                console: console)
        case .kinds:
            return KindsCommand.run(registry: registry, console: console)
        case .preview(let kind, let family, let settings):
            return await PreviewCommand.run(
                kind: kind, family: family, settings: settings, registry: registry, console: console)
        case .cron(let expression, let count, let from, let timeZone):
            return CronCommand.run(
                expression: expression, count: count, from: from, timeZoneName: timeZone, console: console)
        case .run, .list, .show, .reload:
            console.err("widgetd: error: not built yet")
            return ExitCode.failure
        }
    }

    static let version = "0.1.0"
}
