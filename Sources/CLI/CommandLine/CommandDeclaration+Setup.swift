/// The commands that look after the setup: `status` and `doctor`. Both read the config, for its kinds and the files
/// it names.
extension CommandDeclaration {
    static var status: CommandDeclaration {
        CommandDeclaration(
            name: .status, summary: "Show the daemon and its widgets.",
            overview: """
                Show the daemon in one screen: whether it runs (pid, since when), the config it runs and
                whether widgets.yaml has changed into errors since, where it writes, and each widget's state
                in a table 80 columns wide: its text (cut at 24 columns), next reload (a time of day when it
                is today) and last error. 'widgetd list' prints every column in full. Exits 3 when no daemon
                runs.
                """,
            options: [.config()], readsConfig: true,
            parse: { arguments throws(UsageError) in
                .status(configPath: try CommandLineParser.parseConfigOption(arguments, command: .status))
            })
    }

    static var doctor: CommandDeclaration {
        CommandDeclaration(
            name: .doctor, summary: "Check the setup and say what to fix.",
            overview: """
                Check the setup and say what to fix: the daemon, the config, the runtime directory's owner
                and mode, whether a bar reads each widget's output, and whether the systemd user unit is
                installed and enabled. Exits 1 when something needs fixing.
                """,
            options: [.config()], readsConfig: true,
            parse: { arguments throws(UsageError) in
                .doctor(configPath: try CommandLineParser.parseConfigOption(arguments, command: .doctor))
            })
    }
}
