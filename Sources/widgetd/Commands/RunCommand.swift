import Scheduler

/// `widgetd run`: start the daemon and serve until SIGTERM or SIGINT.
enum RunCommand {
    static func run(
        configPath: String, logLevel: LogLevel, registry: KindRegistry, environment: [String: String],
        console: Console
    ) -> Int32 {
        let log = Log.standardError(
            level: logLevel, journal: JournalStream.isStandardError(environment: environment))
        let daemon: Daemon
        do {
            daemon = try Daemon(configPath: configPath, registry: registry, environment: environment, log: log)
        } catch {
            console.err("\(error)")
            return ExitCode.failure
        }
        return daemon.run()
    }
}
