import Text

/// The commands that read no config: `help`, `cron` and `import` (which reads an i3blocks or i3status config, never
/// widgets.yaml). They answer whatever state widgets.yaml is in, as `--version` does.
extension CommandDeclaration {
    static var help: CommandDeclaration {
        CommandDeclaration(
            name: .help, summary: "Show help.", overview: "Show help for widgetd or one of its commands.",
            usageArguments: "[COMMAND]", arguments: [("COMMAND", "The command to explain.")], readsConfig: false,
            parse: CommandLineParser.parseHelp)
    }

    static var cron: CommandDeclaration {
        CommandDeclaration(
            name: .cron, summary: "Print a cron expression's next fire times.",
            overview: """
                Print the next fire times of a cron expression, one per line in ISO 8601 with offset,
                like systemd-analyze calendar. Five fields (minute hour day-of-month month day-of-week),
                lists, ranges, steps, names, and @hourly @daily @midnight @weekly @monthly @yearly @annually.
                """,
            usageArguments: "EXPR", arguments: [("EXPR", "The expression: one quoted argument, or five words.")],
            options: [
                .valued("--count", "N", "How many times to print (default 5)."),
                .valued("--from", "ISO8601", "Start after this instant instead of now (2026-11-29T19:30:00+01:00)."),
                .valued("--tz", "ZONE", "The zone the fields are read in (default: local), e.g. Europe/Berlin, GMT+5."),
            ],
            readsConfig: false, parse: parseCron)
    }

    static var importConfig: CommandDeclaration {
        CommandDeclaration(
            name: .importConfig, summary: "Turn an i3blocks or i3status config into widgets.",
            overview: """
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
                """,
            usageArguments: "i3blocks | i3status [FILE]",
            arguments: [
                ("i3blocks | i3status", "What to import from."),
                ("FILE", "The config to read (default: the program's own search path)."),
            ],
            options: [
                .valued(
                    "--i3blocks-config", "PATH",
                    "i3blocks: write the new i3blocks config there instead of printing it as comments.")
            ],
            readsConfig: false, parse: parseImport)
    }

    private static func parseCron(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .cron)
        var expression: String?
        var count = 5
        var from: String?
        var timeZone: String?
        while let token = try scanner.next() {
            switch token {
            case .option("--count", let inline):
                let text = try scanner.value(of: "--count", inline: inline)
                guard let value = Int(text), (1...10_000).contains(value) else {
                    throw UsageError("--count needs a number from 1 to 10000, found '\(text)'.", command: .cron)
                }
                count = value
            case .option("--from", let inline):
                from = try scanner.value(of: "--from", inline: inline)
            case .option("--tz", let inline):
                timeZone = try scanner.value(of: "--tz", inline: inline)
            case .option(let option, _) where !option.hasPrefix("--"):
                // A lone `-` word cannot be an option here; let it be part of the expression.
                throw scanner.unknown(option)
            case .option(let option, _):
                throw scanner.unknown(option)
            case .positional(let word):
                // The expression may be one quoted argument or five separate words.
                expression = expression.map { $0 + " " + word } ?? word
            }
        }
        guard let expression else {
            throw UsageError("Missing EXPR, e.g. '*/15 9-17 * * mon-fri' or '@daily'.", command: .cron)
        }
        return .cron(expression: expression, count: count, from: from, timeZone: timeZone)
    }

    private static func parseImport(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .importConfig)
        var words: [String] = []
        var output: String?
        while let token = try scanner.next() {
            switch token {
            case .option("--i3blocks-config", let inline):
                output = try scanner.value(of: "--i3blocks-config", inline: inline)
            case .option(let option, _):
                throw scanner.unknown(option)
            case .positional(let word):
                words.append(word)
            }
        }
        guard let source = words.first else {
            throw UsageError(
                "Missing what to import from; widgetd imports from i3blocks or i3status.", command: .importConfig)
        }
        guard source == "i3blocks" || source == "i3status" else {
            throw UsageError(
                "widgetd imports from i3blocks or i3status only, not '\(source)'.", command: .importConfig)
        }
        guard words.count <= 2 else { throw UsageError("Unexpected argument '\(words[2])'.", command: .importConfig) }
        if source == "i3status" {
            // The i3blocks config it would write has no i3status counterpart: i3status is replaced by `widgetd bar`.
            guard output == nil else {
                throw UsageError("--i3blocks-config is for 'import i3blocks' only.", command: .importConfig)
            }
            return .importI3status(file: words.count == 2 ? words[1] : nil)
        }
        return .importI3blocks(file: words.count == 2 ? words[1] : nil, i3blocksOutput: output)
    }
}
