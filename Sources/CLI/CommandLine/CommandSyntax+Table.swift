/// The table of every subcommand's arguments and options: the one place an option is declared.
extension CommandSyntax {
    static func of(_ command: CommandName) -> CommandSyntax {
        switch command {
        case .help:
            CommandSyntax(
                command: .help, usageArguments: "[COMMAND]", arguments: [("COMMAND", "The command to explain.")])
        case .check, .list, .status, .doctor:
            CommandSyntax(command: command, options: [config()])
        case .kinds:
            CommandSyntax(command: .kinds, options: [config("The widgets.yaml whose 'plugins:' to include.")])
        case .importConfig:
            CommandSyntax(
                command: .importConfig, usageArguments: "i3blocks | i3status [FILE]",
                arguments: [
                    ("i3blocks | i3status", "What to import from."),
                    ("FILE", "The config to read (default: the program's own search path)."),
                ],
                options: [
                    CommandOption(
                        name: "--i3blocks-config", value: "PATH",
                        summary: "i3blocks: write the new i3blocks config there instead of printing it as comments.")
                ])
        case .plugins:
            CommandSyntax(command: .plugins, options: [config("The widgets.yaml whose 'plugins:' to include.")])
        case .preview:
            CommandSyntax(
                command: .preview, usageArguments: "KIND",
                arguments: [("KIND", "The kind to preview; 'widgetd kinds' lists them.")],
                options: [
                    CommandOption(
                        name: "--family", value: "FAMILY",
                        summary: "The family, which sets the width budget (default: the kind's first)."),
                    CommandOption(
                        name: "--set", value: "KEY=VALUE", repeatable: true,
                        summary: "Set an intent parameter; repeat for several."),
                    config("The widgets.yaml whose 'plugins:' to include."),
                ])
        case .run:
            CommandSyntax(
                command: .run,
                options: [
                    config(),
                    CommandOption(
                        name: "--log-level", value: "LEVEL",
                        summary: "debug, info (default), warning or error; logs go to stderr."),
                ])
        case .show:
            CommandSyntax(
                command: .show, usageArguments: "NAME",
                arguments: [("NAME", "The widget instance, as named in widgets.yaml.")],
                options: [
                    CommandOption(
                        name: "--format", value: "FORMAT",
                        summary: "plain (default), i3blocks, i3bar, waybar, polybar or tmux."),
                    CommandOption(
                        name: "--follow", value: nil,
                        summary: "Keep running, print each change (no polling), forward stdin's clicks."),
                    config(),
                ])
        case .bar:
            CommandSyntax(
                command: .bar,
                options: [
                    CommandOption(
                        name: "--widgets", value: "NAME,NAME,...",
                        summary: "The widgets to show, in order, by name, comma-separated.", joinsNext: .or),
                    CommandOption(
                        name: "--bar", value: "NAME",
                        summary: "Show the widgets of widgets.yaml's bars: entry NAME, with its layout."),
                    config(),
                ])
        case .reload:
            CommandSyntax(
                command: .reload, usageArguments: "[all | {--kind} | NAME]",
                arguments: [("all | NAME", "Every widget, or the instance NAME.")],
                options: [
                    CommandOption(
                        name: "--kind", value: "KIND",
                        summary: "Every widget of KIND (WidgetKit's reloadTimelines(ofKind:))."),
                    CommandOption(
                        name: "--wait", value: nil,
                        summary: "Return once the new entries are written and print each widget's new text (NAME: "
                            + "TEXT for all or --kind); exit 1 with the reason when a reload or writing its files "
                            + "failed."),
                    CommandOption(name: "--timeout", value: "SECONDS", summary: "How long --wait waits (default 10)."),
                    config(),
                ])
        case .cron:
            CommandSyntax(
                command: .cron, usageArguments: "EXPR",
                arguments: [("EXPR", "The expression: one quoted argument, or five words.")],
                options: [
                    CommandOption(name: "--count", value: "N", summary: "How many times to print (default 5)."),
                    CommandOption(
                        name: "--from", value: "ISO8601",
                        summary: "Start after this instant instead of now (2026-11-29T19:30:00+01:00)."),
                    CommandOption(
                        name: "--tz", value: "ZONE",
                        summary: "The zone the fields are read in (default: local), e.g. Europe/Berlin, GMT+5."),
                ])
        case .click: click
        case .intent:
            CommandSyntax(
                command: .intent, usageArguments: "NAME INTENT [KEY=VALUE ...]",
                arguments: [
                    ("NAME", "The widget instance."), ("INTENT", "The intent, e.g. toggle-favorite."),
                    ("KEY=VALUE", "The intent's parameters, typed as it declares them."),
                ],
                options: [
                    CommandOption(
                        name: "--wait", value: nil,
                        summary: "Return once the widget shows the result and print what it shows; exit 1 with "
                            + "the reason when the intent failed."),
                    config(),
                ])
        case .motivations:
            CommandSyntax(
                command: .motivations,
                usageArguments: "list | add [MESSAGE] | rm ID... | favorite ID | color ID HEX | search TEXT",
                arguments: [
                    (
                        "list",
                        "Newest first, with short ids, ★ for favourites (☆ for the rest) and colours; control characters escaped."
                    ),
                    (
                        "add [MESSAGE]",
                        "Store a motivation (a sample when MESSAGE is left out; a blank one is refused)."
                    ),
                    ("rm ID...", "Delete motivations."), ("favorite ID", "Toggle a favourite."),
                    ("color ID HEX", "Set the background colour (#RGB, #RRGGBB or #RRGGBBAA)."),
                    ("search TEXT", "Motivations whose message contains TEXT (ignoring case and accents)."),
                ],
                options: [config(Help.configOptionHelp + "\nIts settings.store names the store.")])
        case .todos:
            CommandSyntax(
                command: .todos, usageArguments: "list | add TITLE | toggle TITLE-OR-ID | rm TITLE-OR-ID",
                arguments: [
                    ("list", "In the order added, done or not (◉ done, ○ open), as the widget shows them."),
                    ("add TITLE", "Add a to-do."), ("toggle TITLE-OR-ID", "Mark done, or open again."),
                    ("rm TITLE-OR-ID", "Delete a to-do."),
                ],
                options: [config(Help.configOptionHelp + "\nIts settings.store names the store.")])
        case .entities:
            CommandSyntax(
                command: .entities, usageArguments: "motivations", arguments: [("motivations", "The entity type.")],
                options: [
                    CommandOption(
                        name: "--match", value: "TEXT", summary: "Only those matching TEXT (ignoring case and accents)."
                    ),
                    config(),
                ])
        case .generate:
            // `--config` belongs to `names` alone; `man` and `completion` take one word each.
            CommandSyntax(
                command: .generate, usageArguments: "man PAGE | completion SHELL | names [{--config}]",
                arguments: [
                    ("man PAGE", "widgetd.1 or widgets.yaml.5, in roff."),
                    ("completion SHELL", "bash, zsh or fish."),
                    ("names", "The widget names of the running daemon's config, else of --config's."),
                ],
                options: [config()])
        }
    }

    private static var click: CommandSyntax {
        func position(_ name: String, _ value: String, _ summary: String, joinsNext: CommandOption.UsageJoin = .alone)
            -> CommandOption
        {
            CommandOption(name: name, value: value, summary: summary, joinsNext: joinsNext)
        }
        return CommandSyntax(
            command: .click, usageArguments: "NAME", arguments: [("NAME", "The widget instance.")],
            options: [
                position("--button", "N", "1 left (default), 2 middle, 3 right, 4 scroll up, 5 scroll down."),
                position(
                    "--x", "X", "Where the click landed in the block, in pixels, as i3bar reports it.", joinsNext: .and),
                position("--width", "W", "The block's width, in pixels, as i3bar reports it; given with --x."),
                position("--y", "Y", "How far down the block it landed (i3bar's relative_y)."),
                position("--height", "H", "The block's height (i3bar's height)."),
                position("--screen-x", "X", "Where on the screen it landed (i3bar's x; i3blocks' BLOCK_X)."),
                position("--screen-y", "Y", "Where on the screen it landed (i3bar's y; i3blocks' BLOCK_Y)."),
                position("--modifiers", "KEYS", "Modifier keys held, separated by commas: Shift,Mod4."),
                CommandOption(
                    name: "--wait", value: nil,
                    summary: "Return once the widget shows the result and print what it shows; exit 1 with the "
                        + "reason when nothing is bound to the button, its program could not start (not found, no "
                        + "display) or its intent failed."),
                config(),
            ])
    }

    /// `--config PATH`, which every command that reads widgets.yaml or the store takes.
    private static func config(_ summary: String = Help.configOptionHelp) -> CommandOption {
        CommandOption(name: "--config", value: "PATH", summary: summary)
    }
}
