import Kind
import Providers
import Runtime
import System

/// `widgetd run`: start the daemon and serve until SIGTERM or SIGINT. The executable hands it to the CLI as its
/// `DaemonLauncher` (Sources/Main); `reportError` prints why the daemon could not start.
public enum RunCommand {
    public static func run(
        configPath: String, logLevel: LogLevel, standard: KindRegistry, store: StoreAccess,
        environment: [String: String], reportError: (String) -> Void
    ) -> Int32 {
        let journal = JournalStream.isStandardError(environment: environment)
        let log = Log.standardError(level: logLevel, journal: journal)
        let descriptors = DescriptorLimit.raiseToHard()
        log(.debug, "open descriptors: at most \(descriptors)")
        let daemon: Daemon
        do {
            daemon = try Daemon(
                configPath: configPath, standard: standard, store: store, environment: environment, log: log)
        } catch {
            // The journal files each line on its own: every line of a multi-line report (config errors with their
            // source lines and carets) is an error.
            let text = "\(error)"
            reportError(
                journal
                    ? text.split(separator: "\n", omittingEmptySubsequences: false).map { "<3>" + $0 }
                        .joined(separator: "\n") : text)
            return ExitCode.failure
        }
        return daemon.run()
    }
}
