/// The help text of widgetd and of each command, in swift-argument-parser's layout; a command's comes from its
/// `CommandDeclaration`.
enum Help {
    /// One line per command: `widgetd help` lists them, the usage error prints one.
    static func usage(of command: CommandName?) -> String {
        command.map { CommandDeclaration.of($0).usage } ?? "widgetd <command> [options]"
    }

    static func text(for command: CommandName?) -> String {
        guard let command else { return overview }
        return page(of: command).text
    }

    /// A command's help as a table: `--help` prints it, and widgetd(1) is made from it (`ManPage`).
    static func page(of command: CommandName) -> HelpPage { CommandDeclaration.of(command).helpPage }

    static let configOptionHelp = """
        The config file. Default: $WIDGETD_CONFIG, else $XDG_CONFIG_HOME/widgetd/widgets.yaml,
        else ~/.config/widgetd/widgets.yaml.
        """

    private static let overview = """
        OVERVIEW: WidgetKit's timeline model for Linux status bars.

        widgetd reads widget instances from widgets.yaml, asks each kind for a timeline of dated entries,
        and writes each entry in the formats i3blocks, i3bar, waybar, polybar and tmux read.

        USAGE: \(usage(of: nil))

        OPTIONS:
          -h, --help              Show help.
          --version               Show the version.

        SUBCOMMANDS:
        \(CommandDeclaration.visible.map { row(($0.name.rawValue, $0.summary)) }.joined(separator: "\n"))

          See 'widgetd help <command>' for detailed help.

        EXIT CODES:
          0  success
          1  failure: a bad config, a widget name the config lacks, a store error, a failed --wait
          3  list, status: the daemon is not running
          33 show --format i3blocks: the entry is urgent (how i3blocks reads urgency)
          64 usage: an unknown command or option, a missing argument, or a malformed value (an unknown
             kind, family or format, a bad number, date, time zone, colour or cron expression)
        """

    /// An option or argument with its explanation, continuation lines indented under the explanation.
    static func row(_ item: (String, String)) -> String {
        let indent = String(repeating: " ", count: 26)
        let explanation = item.1.split(separator: "\n").flatMap { wrapped($0, width: width - indent.count) }
        return "  " + pad(item.0, to: 24) + explanation.joined(separator: "\n" + indent)
    }

    /// The widest line an explanation runs to, its indent included, as the hand-wrapped ones are.
    static let width = 118

    /// `line` broken between words into lines of at most `width` characters (a longer word stands alone).
    private static func wrapped(_ line: Substring, width: Int) -> [Substring] {
        var lines: [Substring] = []
        var rest = line
        while rest.count > width {
            let window = rest.prefix(width + 1)
            guard let space = window.lastIndex(of: " ") ?? rest.firstIndex(of: " ") else { break }
            lines.append(rest[..<space])
            rest = rest[rest.index(after: space)...]
        }
        return lines + [rest]
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
