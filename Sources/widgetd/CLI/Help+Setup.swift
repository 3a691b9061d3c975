/// Help for the commands that look after the setup: status, doctor and the hidden generate.
extension Help {
    static var statusPage: HelpPage {
        page(
            overview: """
                Show the daemon in one screen: whether it runs (pid, since when), the config it runs and
                whether widgets.yaml has changed into errors since, where it writes, and each widget's state.
                Exits 3 when no daemon runs.
                """,
            usage: usage(of: .status), options: [("--config PATH", configOptionHelp)])
    }

    static var doctorPage: HelpPage {
        page(
            overview: """
                Check the setup and say what to fix: the daemon, the config, the runtime directory's owner
                and mode, whether a bar reads each widget's output, and whether the systemd user unit is
                installed and enabled. Exits 1 when something needs fixing.
                """,
            usage: usage(of: .doctor), options: [("--config PATH", configOptionHelp)])
    }

    static var generatePage: HelpPage {
        page(
            overview: """
                Print a man page, a shell completion script or the active config's widget names, made from
                the same tables as --help, the parser and the config checker. Used by scripts/install,
                scripts/package-deb and the completions themselves.
                """,
            usage: usage(of: .generate),
            arguments: [
                ("man PAGE", "widgetd.1 or widgets.yaml.5, in roff."),
                ("completion SHELL", "bash, zsh or fish."),
                ("names", "The widget names of the running daemon's config, else of --config's."),
            ],
            options: [("--config PATH", configOptionHelp)])

    }
}
