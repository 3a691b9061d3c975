/// The help text of widgetd and of each command, in swift-argument-parser's layout.
enum Help {
    /// One line per command: `widgetd help` lists them, the usage error prints one.
    static func usage(of command: CommandName?) -> String {
        command.map { CommandSyntax.of($0).usage } ?? "widgetd <command> [options]"
    }

    static func text(for command: CommandName?) -> String {
        guard let command else { return overview }
        return page(of: command).text
    }

    /// A command's help as a table: `--help` prints it, and widgetd(1) is made from it (`ManPage`). Its usage line,
    /// arguments and options come from the command's `CommandSyntax`, the table the parser reads.
    static func page(of command: CommandName) -> HelpPage {
        let syntax = CommandSyntax.of(command)
        return HelpPage(
            overview: overview(of: command), usage: syntax.usage, arguments: syntax.arguments,
            options: syntax.optionRows)
    }

    /// What a command does, the paragraph --help opens with.
    static func overview(of command: CommandName) -> String {
        switch command {
        case .help: "Show help for widgetd or one of its commands."
        case .check:
            """
            Check widgets.yaml and report every mistake with file:line:col.
            Prints "N widgets OK" and exits 0, or prints each error with its source line and exits 1.
            Warnings (an exec command not found on this PATH, a motivation id the store lacks) do not
            fail the check; the store is only read, never created. At most 100
            errors are shown, then "and N more errors"; files over 1 MiB are refused.
            """
        case .importConfig:
            """
            Read an i3blocks config and print the widgets.yaml that runs its blocks as exec widgets (commands,
            interval, persist, signal, format and every property), then the new i3blocks config that shows
            them through widgetd. What cannot be translated is listed as comments. Blocks with signal= are
            listed on stderr with the 'widgetd reload NAME' that replaces each 'pkill -RTMIN+N i3blocks' in
            your key bindings (i3blocks 1.4 ends on a signal its new config does not ask for). Without FILE,
            i3blocks' own search path: $XDG_CONFIG_HOME/i3blocks/config (~/.config/…), ~/.i3blocks.conf,
            $XDG_CONFIG_DIRS/i3blocks/config (/etc/xdg/…), /etc/i3blocks.conf. A block running a well-known
            i3blocks-contrib script (cpu_usage, memory, disk, load_average, temperature, battery, backlight,
            iface, bandwidth, wifi, mediaplayer, volume, volume-pulseaudio) gets a note naming the system kind
            that replaces it and what changes; it is not replaced.
            From i3status: the modules with a kind (cpu_usage, memory, load, disk, cpu_temperature, battery,
            ethernet, wireless, volume, tztime, time) as widgets of it, placeholders, thresholds and the bar
            layout kept, 'order' as the bars: entry i3status, and the i3 'bar {}' block that runs
            'widgetd bar --bar i3status' as comments at the end. Modules without a kind yet and options with
            no counterpart are listed as comments. Without FILE,
            i3status' search path: $XDG_CONFIG_HOME/i3status/config (~/.config/…), $XDG_CONFIG_DIRS/i3status/config
            (/etc/xdg/…), ~/.i3status.conf, /etc/i3status.conf.
            """
        case .plugins:
            """
            List the plugins found: executables in $XDG_DATA_HOME/widgetd/plugins/ and
            /usr/lib/widgetd/plugins/, and the 'plugins:' of widgets.yaml. For each: the kind it declares,
            its version, where it was found, and its state as the running daemon last saw it (ready,
            running, crashed, idle, gone) with its last error; under the table, the last lines of standard
            error of each plugin that failed. Every plugin that failed before is run again. Declarations are
            cached in $XDG_CACHE_HOME/widgetd/plugins/ and read again when a plugin's files change (after a
            failure, also the files beside them). Exit 1 when a plugin is broken, gone or not executable. The
            protocol is in docs/PLUGINS.md.
            """
        case .kinds:
            """
            List the widget kinds: display name, description, families, and parameters with their type,
            cases and default. This is widgetd's widget gallery. Plugin kinds (docs/PLUGINS.md) follow the
            built-in ones, with the plugin that serves them; 'widgetd plugins' shows the plugins' state.
            """
        case .preview:
            """
            Render a kind's snapshot once, as a bar would show it, without a config or a daemon.
            Parameters are checked exactly as widgets.yaml's 'intent:' is.
            """
        case .run:
            """
            Run the daemon: paint placeholders, ask every widget for its timeline, swap entries in at
            their dates, and write them to <output_dir>/<name>.<format>. Sleeps until the next deadline;
            takes reloads on the control FIFO; re-reads widgets.yaml when it changes or on SIGHUP.
            A deleted FIFO, lock or runtime directory is made again (SIGHUP also checks them).
            SIGRTMIN+N reloads the widgets with signal: N (pkill -RTMIN+N widgetd, as with i3blocks;
            the show --follow and bar processes that pkill also reaches ignore it). SIGUSR1 and SIGUSR2
            are logged and ignored. SIGTERM or SIGINT stop it cleanly, with every interval: persist
            command. One daemon runs per user. A log that cannot be written loses lines, never the
            daemon.
            """
        case .list:
            """
            List the running daemon's widgets: kind, family, current text, policy, next reload and
            last error. The daemon's own config and output directory are used, whatever --config says.
            Exits 3 when no daemon runs; says so when widgets.yaml was edited into errors and the daemon
            still runs the previous config.
            """
        case .show:
            """
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
            """
        case .bar:
            """
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
            """
        case .reload:
            """
            Ask the daemon for new timelines: of every widget (all, the default), of one kind, or of
            one instance. Exits 1 when no daemon runs.
            """
        case .cron:
            """
            Print the next fire times of a cron expression, one per line in ISO 8601 with offset,
            like systemd-analyze calendar. Five fields (minute hour day-of-month month day-of-week),
            lists, ranges, steps, names, and @hourly @daily @midnight @weekly @monthly @yearly.
            """
        case .click:
            """
            Click a widget as a bar would: the daemon runs what the widget's on_click: binds to the
            button, else its kind's default (a motivation's left click toggles its favourite).
            """
        case .intent:
            """
            Run an intent of a widget's kind (WidgetKit's interactive AppIntent); 'widgetd kinds'
            lists each kind's intents and their parameters. The widgets of the kind reload after.
            """
        case .motivations:
            """
            Edit the motivations in the shared store, as a widget's app does, then ask a running
            daemon to reload the motivations widgets. Ids may be shortened to a unique prefix of 4 or
            more characters. 'add' with no MESSAGE stores one of the twenty samples not stored yet.
            """
        case .todos:
            """
            Edit the to-dos in the shared store, then ask a running daemon to reload the to-dos
            widgets. A to-do is named by its title (ignoring case) or an id prefix.
            """
        case .entities:
            """
            The configuration picker: the entities a widget's entity parameter can name, with the ids to
            paste into widgets.yaml (WidgetKit's suggestedEntities and entities(matching:)).
            """
        case .status: statusOverview
        case .doctor: doctorOverview
        case .generate: generateOverview
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
        \(CommandName.allCases.filter { !$0.isHidden }.map { row(($0.rawValue, summary(of: $0))) }.joined(separator: "\n"))

          See 'widgetd help <command>' for detailed help.

        EXIT CODES:
          0  success
          1  failure: a bad config, a widget name the config lacks, a store error, a failed --wait
          3  list, status: the daemon is not running
          33 show --format i3blocks: the entry is urgent (how i3blocks reads urgency)
          64 usage: an unknown command or option, a missing argument, or a malformed value (an unknown
             kind, family or format, a bad number, date, time zone, colour or cron expression)
        """

    static func summary(of command: CommandName) -> String {
        switch command {
        case .help: "Show help."
        case .check: "Check widgets.yaml."
        case .kinds: "List the widget kinds."
        case .importConfig: "Turn an i3blocks or i3status config into widgets."
        case .preview: "Render a kind's snapshot."
        case .run: "Run the daemon."
        case .list: "List the daemon's widgets."
        case .show: "Print a widget's current entry."
        case .bar: "Be an i3bar or swaybar status command."
        case .reload: "Ask the daemon for new timelines."
        case .cron: "Print a cron expression's next fire times."
        case .click: "Click a widget, as a bar would."
        case .intent: "Run one of a widget's intents."
        case .motivations: "Edit the motivations in the store."
        case .todos: "Edit the to-dos in the store."
        case .entities: "Pick an entity for widgets.yaml."
        case .status: "Show the daemon and its widgets."
        case .doctor: "Check the setup and say what to fix."
        case .generate: "Print a man page or a completion script."
        case .plugins: "List the plugins and their state."
        }
    }

    /// An option or argument with its explanation, continuation lines indented under the explanation.
    static func row(_ item: (String, String)) -> String {
        let indent = String(repeating: " ", count: 26)
        let explanation = item.1.split(separator: "\n").joined(separator: "\n" + indent)
        return "  " + pad(item.0, to: 24) + explanation
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
