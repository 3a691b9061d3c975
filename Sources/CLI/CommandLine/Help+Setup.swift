/// What the commands that look after the setup do: status, doctor and the hidden generate.
extension Help {
    static let statusOverview = """
        Show the daemon in one screen: whether it runs (pid, since when), the config it runs and
        whether widgets.yaml has changed into errors since, where it writes, and each widget's state
        in a table 80 columns wide: its text (cut at 24 columns), next reload (a time of day when it
        is today) and last error. 'widgetd list' prints every column in full. Exits 3 when no daemon
        runs.
        """

    static let doctorOverview = """
        Check the setup and say what to fix: the daemon, the config, the runtime directory's owner
        and mode, whether a bar reads each widget's output, and whether the systemd user unit is
        installed and enabled. Exits 1 when something needs fixing.
        """

    static let generateOverview = """
        Print a man page, a shell completion script or the active config's widget names, made from
        the same tables as --help, the parser and the config checker. Used by scripts/install,
        scripts/package-deb and the completions themselves.
        """
}
