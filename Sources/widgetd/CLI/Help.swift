/// The help text of widgetd and of each command, in swift-argument-parser's layout.
enum Help {
    /// One line per command: `widgetd help` lists them, the usage error prints one.
    static func usage(of command: CommandName?) -> String {
        switch command {
        case nil: "widgetd <command> [options]"
        case .help: "widgetd help [COMMAND]"
        case .check: "widgetd check [--config PATH]"
        case .kinds: "widgetd kinds"
        case .preview: "widgetd preview KIND [--family FAMILY] [--set KEY=VALUE ...]"
        }
    }

    static func text(for command: CommandName?) -> String {
        switch command {
        case nil: overview
        case .help:
            page(
                overview: "Show help for widgetd or one of its commands.", usage: usage(of: .help),
                arguments: [("COMMAND", "The command to explain.")])
        case .check:
            page(
                overview: """
                    Check widgets.yaml and report every mistake with file:line:col.
                    Prints "N widgets OK" and exits 0, or prints each error with its source line and exits 1.
                    """,
                usage: usage(of: .check),
                options: [("--config PATH", configOptionHelp)])
        case .kinds:
            page(
                overview: """
                    List the widget kinds: display name, description, families, and parameters with their type,
                    cases and default. This is widgetd's widget gallery.
                    """,
                usage: usage(of: .kinds))
        case .preview:
            page(
                overview: """
                    Render a kind's snapshot once, as a bar would show it, without a config or a daemon.
                    Parameters are checked exactly as widgets.yaml's 'intent:' is.
                    """,
                usage: usage(of: .preview),
                arguments: [("KIND", "The kind to preview; 'widgetd kinds' lists them.")],
                options: [
                    ("--family FAMILY", "The family, which sets the width budget (default: the kind's first)."),
                    ("--set KEY=VALUE", "Set an intent parameter; repeat for several."),
                ])
        }
    }

    static let configOptionHelp = """
        The config file. Default: $WIDGETD_CONFIG, else $XDG_CONFIG_HOME/widgetd/widgets.yaml,
        else ~/.config/widgetd/widgets.yaml.
        """

    private static let overview = """
        OVERVIEW: WidgetKit's timeline model for Linux status bars.

        widgetd reads widget instances from widgets.yaml, asks each kind for a timeline of dated entries,
        and writes each entry in the formats i3blocks, waybar, polybar and tmux read.

        USAGE: \(usage(of: nil))

        OPTIONS:
          -h, --help              Show help.
          --version               Show the version.

        SUBCOMMANDS:
        \(CommandName.allCases.map { "  " + pad(usage(of: $0), to: 60) + summary(of: $0) }.joined(separator: "\n"))

          See 'widgetd help <command>' for detailed help.
        """

    private static func summary(of command: CommandName) -> String {
        switch command {
        case .help: "Show help."
        case .check: "Check widgets.yaml."
        case .kinds: "List the widget kinds."
        case .preview: "Render a kind's snapshot."
        }
    }

    private static func page(
        overview: String, usage: String, arguments: [(String, String)] = [], options: [(String, String)] = []
    ) -> String {
        var lines = ["OVERVIEW: \(overview)", "", "USAGE: \(usage)"]
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"] + arguments.map(row)
        }
        lines += ["", "OPTIONS:"] + (options + [("-h, --help", "Show help.")]).map(row)
        return lines.joined(separator: "\n")
    }

    /// An option or argument with its explanation, continuation lines indented under the explanation.
    private static func row(_ item: (String, String)) -> String {
        let indent = String(repeating: " ", count: 26)
        let explanation = item.1.split(separator: "\n").joined(separator: "\n" + indent)
        return "  " + pad(item.0, to: 24) + explanation
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
