import Basics

/// The commands that read the config for its kinds (the plugins its `plugins:` names), its settings and its widgets:
/// `check`, `kinds`, `preview`, `plugins` and `run`, the daemon.
extension CommandDeclaration {
    static var check: CommandDeclaration {
        CommandDeclaration(
            name: .check, summary: "Check widgets.yaml.",
            overview: """
                Check widgets.yaml and report every mistake with file:line:col.
                Prints "N widgets OK" and exits 0, or prints each error with its source line and exits 1.
                Warnings (an exec command not found on this PATH, a motivation id the store lacks) do not
                fail the check; the store is only read, never created. At most 100
                errors are shown, then "and N more errors"; files over 1 MiB are refused.
                """,
            options: [.config()], readsConfig: true,
            parse: { arguments throws(UsageError) in
                .check(configPath: try CommandLineParser.parseConfigOption(arguments, command: .check))
            })
    }

    static var kinds: CommandDeclaration {
        CommandDeclaration(
            name: .kinds, summary: "List the widget kinds.",
            overview: """
                List the widget kinds: display name, description, families, and parameters with their type,
                cases and default. This is widgetd's widget gallery. Plugin kinds (docs/PLUGINS.md) follow the
                built-in ones, with the plugin that serves them; 'widgetd plugins' shows the plugins' state.
                """,
            options: [.config("The widgets.yaml whose 'plugins:' to include.")], readsConfig: true,
            parse: { arguments throws(UsageError) in
                .kinds(configPath: try CommandLineParser.parseConfigOption(arguments, command: .kinds))
            })
    }

    static var preview: CommandDeclaration {
        CommandDeclaration(
            name: .preview, summary: "Render a kind's snapshot.",
            overview: """
                Render a kind's snapshot once, as a bar would show it, without a config or a daemon.
                Parameters are checked exactly as widgets.yaml's 'intent:' is.
                """,
            usageArguments: "KIND", arguments: [("KIND", "The kind to preview; 'widgetd kinds' lists them.")],
            options: [
                .valued("--family", "FAMILY", "The family, which sets the width budget (default: the kind's first)."),
                .valued("--set", "KEY=VALUE", "Set an intent parameter; repeat for several.", repeatable: true),
                .config(
                    "The widgets.yaml whose 'plugins:' to include, and whose store to read when no daemon runs "
                        + "(a running daemon's store comes first, as for 'motivations')."),
            ],
            readsConfig: true, parse: parsePreview)
    }

    static var plugins: CommandDeclaration {
        CommandDeclaration(
            name: .plugins, summary: "List the plugins and their state.",
            overview: """
                List the plugins found: executables in $XDG_DATA_HOME/widgetd/plugins/ and
                /usr/lib/widgetd/plugins/, and the 'plugins:' of widgets.yaml. For each: the kind it declares,
                its version, where it was found, and its state as the running daemon last saw it (ready,
                running, crashed, idle, gone) with its last error; under the table, the last lines of standard
                error of each plugin that failed. Every plugin that failed before is run again. Declarations are
                cached in $XDG_CACHE_HOME/widgetd/plugins/ and read again when a plugin's files change (after a
                failure, also the files beside them). Exit 1 when a plugin is broken, gone or not executable. The
                protocol is in docs/PLUGINS.md.
                """,
            options: [.config("The widgets.yaml whose 'plugins:' to include.")], readsConfig: true,
            parse: { arguments throws(UsageError) in
                .plugins(configPath: try CommandLineParser.parseConfigOption(arguments, command: .plugins))
            })
    }

    static var run: CommandDeclaration {
        CommandDeclaration(
            name: .run, summary: "Run the daemon.",
            overview: """
                Run the daemon: paint placeholders, ask every widget for its timeline, swap entries in at
                their dates, and write them to <output_dir>/<name>.<format>. Sleeps until the next deadline;
                takes reloads on the control FIFO; re-reads widgets.yaml when it changes or on SIGHUP.
                A deleted FIFO, lock or runtime directory is made again (SIGHUP also checks them).
                SIGRTMIN+N reloads the widgets with signal: N (pkill -RTMIN+N widgetd, as with i3blocks;
                the show --follow and bar processes that pkill also reaches ignore it). SIGUSR1 and SIGUSR2
                are logged and ignored. SIGTERM or SIGINT stop it cleanly, with every interval: persist
                command. One daemon runs per user. A log that cannot be written loses lines, never the
                daemon.
                """,
            options: [
                .config(),
                .valued("--log-level", "LEVEL", "debug, info (default), warning or error; logs go to stderr."),
            ],
            readsConfig: true, parse: parseRun)
    }

    private static func parsePreview(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .preview)
        var kind: String?
        var family: String?
        var settings: [ParameterSetting] = []
        var configPath: String?
        while let token = try scanner.next() {
            switch token {
            case .option("--family", let inline):
                family = try scanner.value(of: "--family", inline: inline)
            case .option("--set", let inline):
                let assignment = try scanner.value(of: "--set", inline: inline)
                guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                    throw UsageError("Expected KEY=VALUE after '--set', found '\(assignment)'.", command: .preview)
                }
                settings.append(
                    ParameterSetting(
                        key: String(assignment[..<equals]),
                        value: String(assignment[assignment.index(after: equals)...])))
            default:
                try scanner.takeShared(token, configPath: &configPath, name: &kind)
            }
        }
        guard let kind else {
            throw UsageError("Missing KIND; 'widgetd kinds' lists them.", command: .preview)
        }
        return .preview(kind: kind, family: family, settings: settings, configPath: configPath)
    }

    private static func parseRun(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .run)
        var configPath: String?
        var logLevel: String?
        while let token = try scanner.next() {
            switch token {
            case .option("--log-level", let inline):
                let level = try scanner.value(of: "--log-level", inline: inline)
                guard ["debug", "info", "warning", "error"].contains(level) else {
                    throw UsageError(
                        "Unknown log level '\(level)'; levels: debug, info, warning, error.", command: .run)
                }
                logLevel = level
            default:
                try scanner.takeShared(token, configPath: &configPath)
            }
        }
        return .run(configPath: configPath, logLevel: logLevel)
    }
}
