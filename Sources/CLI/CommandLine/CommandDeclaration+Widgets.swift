import Basics
import Text

/// The commands that read the running daemon's widgets: `list`, `show` and `bar`. Each reads the config the daemon
/// runs, for its widgets and the kinds' plugins.
extension CommandDeclaration {
    static var list: CommandDeclaration {
        CommandDeclaration(
            name: .list, summary: "List the daemon's widgets.",
            overview: """
                List the running daemon's widgets: kind, family, current text, policy, next reload and
                last error. The daemon's own config and output directory are used, whatever --config says.
                Exits 3 when no daemon runs; says so when widgets.yaml was edited into errors and the daemon
                still runs the previous config.
                """,
            options: [.config()], readsConfig: true,
            parse: { arguments throws(UsageError) in
                .list(configPath: try CommandLineParser.parseConfigOption(arguments, command: .list))
            })
    }

    static var show: CommandDeclaration {
        CommandDeclaration(
            name: .show, summary: "Print a widget's current entry.",
            overview: """
                Print a widget's current entry, worked out from the timeline the daemon keeps for it.
                With --follow, print it again on every change (waking at the timeline's next entry, or
                when a new timeline arrives), for i3blocks interval=persist, polybar tail = true and
                waybar exec. With --format i3blocks each update is the full text alone, one line, as a
                raw persist block reads it (use --format i3bar with format=json for colours); without
                --follow, an urgent entry exits 33, as an i3blocks interval= block reads urgency.
                Clicks pass through to the daemon: when i3blocks runs the command for a click
                ($BLOCK_BUTTON set, BLOCK_X/BLOCK_Y on the screen, and from i3blocks 1.5 relative_x,
                relative_y, width, height and modifiers), the click is sent first and the entry printed
                once it shows the result. With --follow, each line on standard input is a click: a button
                number, or an i3bar click object (button, x, y, relative_x, relative_y, width, height,
                modifiers), as i3blocks 1.5 writes with format=json. A terminal, and i3blocks 1.4's click stream (which 1.4 hands to
                every block and reads itself), are left unread. contrib/i3blocks.conf shows the setup.
                --follow wakes only when this widget changes, and exits quietly (status 0) when its
                reader closes or its parent bar exits. It ignores SIGRTMIN+N, and SIGHUP unless its output
                is a terminal: a pkill -RTMIN+N or pkill -HUP widgetd meant for the daemon leaves it be.
                """,
            usageArguments: "NAME", arguments: [("NAME", "The widget instance, as named in widgets.yaml.")],
            options: [
                .valued("--format", "FORMAT", "plain (default), i3blocks, i3bar, waybar, polybar or tmux."),
                .flag("--follow", "Keep running, print each change (no polling), forward stdin's clicks."),
                .config(),
            ],
            readsConfig: true, parse: parseShow)
    }

    static var bar: CommandDeclaration {
        CommandDeclaration(
            name: .bar, summary: "Be an i3bar or swaybar status command.",
            overview: """
                Be an i3bar or swaybar status command (status_command widgetd bar): print the i3bar
                protocol's header and one status line of the widgets' blocks, again whenever one of them
                changes (no polling), with every block property the entry and the bar's settings give:
                color (only with the background it was chosen for), background, border, urgent,
                short_text, markup, min_width, align, separator, separator_block_width. Each click goes
                straight to its widget with the button and the position within the block, so a to-do
                click ticks the item under the pointer. SIGUSR1 (the header's stop_signal) pauses the
                output while the bar is hidden, SIGUSR2 resumes it. It follows saves of widgets.yaml (a
                widget added to the bar shows without a restart; a save with errors keeps the blocks) and
                exits quietly when the bar goes. Like show --follow, it ignores SIGRTMIN+N and (unless its
                output is a terminal) SIGHUP, which are the daemon's.
                """,
            options: [
                .valued(
                    "--widgets", "NAME,NAME,...", "The widgets to show, in order, by name, comma-separated.",
                    joinsNext: .or),
                .valued(
                    "--bar", "NAME",
                    "Show the widgets of widgets.yaml's bars: entry NAME, with its layout: the line the daemon "
                        + "renders for it, subscribed to on its updates socket and passed on as it changes."),
                .config(),
            ],
            readsConfig: true, parse: parseBar)
    }

    private static func parseShow(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .show)
        var instance: String?
        var format: String?
        var follow = false
        var configPath: String?
        while let token = try scanner.next() {
            switch token {
            case .option("--format", let inline):
                format = try scanner.value(of: "--format", inline: inline)
            case .option("--follow", _):
                follow = true
            default:
                try scanner.takeShared(token, configPath: &configPath, name: &instance)
            }
        }
        guard let instance else { throw UsageError("Missing NAME; 'widgetd list' shows them.", command: .show) }
        return .show(instance: instance, format: format, follow: follow, configPath: configPath)
    }

    private static func parseBar(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .bar)
        var widgets: [String]?
        var bar: String?
        var configPath: String?
        while let token = try scanner.next() {
            switch token {
            case .option("--widgets", let inline):
                let list = try scanner.value(of: "--widgets", inline: inline)
                widgets = list.split(separator: ",").map { $0.trimmingSpaces() }.filter {
                    !$0.isEmpty
                }
            case .option("--bar", let inline):
                bar = try scanner.value(of: "--bar", inline: inline)
            default:
                try scanner.takeShared(token, configPath: &configPath)
            }
        }
        if widgets != nil, bar != nil {
            throw UsageError("--widgets and --bar both choose the widgets; give one.", command: .bar)
        }
        return .bar(widgets: widgets, bar: bar, configPath: configPath)
    }
}
