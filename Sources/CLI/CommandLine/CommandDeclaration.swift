/// One subcommand, declared once: its name, what `widgetd help` and `--help` say about it, its arguments and options,
/// whether it reads widgets.yaml, and how its words become a `Command`.
///
/// The parser, `--help` and `help COMMAND`, widgetd(1) and the bash, zsh and fish completions are all written from
/// these declarations (`CommandDeclaration.all`), so none of them can name an option the parser refuses or leave out
/// one it takes: adding an option is one edit here, plus the use of its value in `parse`.
struct CommandDeclaration {
    var name: CommandName
    /// The line `widgetd help` lists the command with, and the completions describe it with.
    var summary: String
    /// What the command does, the paragraph `--help` and its section of widgetd(1) open with.
    var overview: String
    /// The positional part of the usage line (`NAME`, `[all | {--kind} | NAME]`); `{--kind}` stands for that option
    /// written with its value, which the options part then leaves out.
    var usageArguments = ""
    /// Positional arguments (or actions, for `motivations` and `todos`) and what each means, as --help lists them.
    var arguments: [(String, String)] = []
    var options: [CommandOption] = []
    /// Whether running it reads widgets.yaml (its kinds' plugins, the store its settings name, its widgets). One that
    /// does not is answered whatever state the file is in, and never waits on it (a FIFO nobody closes).
    var readsConfig: Bool
    /// Left out of `widgetd help`'s list, widgetd(1) and the completions: a command for scripts, not for users.
    var isHidden = false
    /// The command's words after its name (`--help` is already answered) as the `Command` to run. It reads them
    /// through an `ArgumentScanner`, which lets through only the options declared above.
    var parse: (ArraySlice<String>) throws(UsageError) -> Command

    /// Every command takes it; `--help` anywhere before `--` wins over every other word (`CommandLineParser.parse`).
    static let helpOption = CommandOption(name: "--help", shortName: "-h", value: nil, summary: "Show help.")

    /// The options with `--help`, which usage lines leave out.
    var allOptions: [CommandOption] { options + [Self.helpOption] }

    /// The option called `name` (long or short), if this command takes it.
    func option(named name: String) -> CommandOption? {
        allOptions.first { $0.name == name || $0.shortName == name }
    }

    /// The usage line: `widgetd show NAME [--format FORMAT] [--follow] [--config PATH]`.
    var usage: String {
        var words = ["widgetd", name.rawValue]
        var arguments = usageArguments
        var inArguments: [String] = []
        for option in options where arguments.contains("{\(option.name)}") {
            arguments = arguments.replacing("{\(option.name)}", with: option.syntax)
            inArguments.append(option.name)
        }
        if !arguments.isEmpty { words.append(arguments) }
        var group: [String] = []
        var nested = 0
        for option in options where !inArguments.contains(option.name) {
            group.append(option.syntax + (option.repeatable ? " ..." : ""))
            switch option.joinsNext {
            case .alone:
                words.append("[" + group.joined() + String(repeating: "]", count: nested + 1))
                group = []
                nested = 0
            case .and: group.append(" ")
            case .or: group.append(" | ")
            case .optionallyWith:
                group.append(" [")
                nested += 1
            }
        }
        return words.joined(separator: " ")
    }

    /// The OPTIONS rows of --help and widgetd(1): options given together share a row and its explanation.
    var optionRows: [(String, String)] {
        var rows: [(String, String)] = []
        var pending: (String, String)?
        for option in options {
            let syntax = pending.map { $0.0 + " " + option.syntax } ?? option.syntax
            let summary = pending?.1 ?? option.summary
            if option.joinsNext == .and {
                pending = (syntax, summary)
            } else {
                rows.append((syntax, summary))
                pending = nil
            }
        }
        return rows + [("-h, --help", Self.helpOption.summary)]
    }

    /// The command's help as a table: `--help` prints it, and widgetd(1) is made from it (`ManPage`).
    var helpPage: HelpPage {
        HelpPage(overview: overview, usage: usage, arguments: arguments, options: optionRows)
    }
}

/// One option of a subcommand, as the parser, the usage line, `--help`, the man page and the completions all read it.
struct CommandOption {
    /// How an option shares its usage brackets with the option after it.
    enum UsageJoin {
        /// Brackets of its own: `[--wait]`.
        case alone
        /// Given together with the next: `[--x X --width W]`; --help explains both in one row.
        case and
        /// Either this or the next: `[--widgets NAME,NAME,... | --bar NAME]`.
        case or
        /// The next is given only with this one, which may come alone: `[--wait [--timeout SECONDS]]`; each has its
        /// own row in --help.
        case optionallyWith
    }

    var name: String
    /// A one-dash alias (`-h`), if any.
    var shortName: String? = nil
    /// The name of its value as usage and help write it (`PATH`); nil for a flag, which takes no value. The
    /// completions offer values by this name (`CompletionTable.values(ofPlaceholder:)`): `FORMAT` the formats.
    var value: String?
    /// Given more than once, each counts (`--set`); for any other option the last one given counts.
    var repeatable = false
    var summary: String
    var joinsNext: UsageJoin = .alone

    /// `--format FORMAT`, `--follow`: the option as help and error messages write it.
    var syntax: String { value.map { "\(name) \($0)" } ?? name }

    /// `--config PATH`, which every command that reads widgets.yaml or the store takes.
    static func config(_ summary: String = Help.configOptionHelp) -> CommandOption {
        CommandOption(name: "--config", value: "PATH", summary: summary)
    }

    /// An option that takes a value, in the order the declarations write it.
    static func valued(
        _ name: String, _ value: String, _ summary: String, repeatable: Bool = false, joinsNext: UsageJoin = .alone
    ) -> CommandOption {
        CommandOption(name: name, value: value, repeatable: repeatable, summary: summary, joinsNext: joinsNext)
    }

    /// A flag: an option that takes no value.
    static func flag(_ name: String, _ summary: String, joinsNext: UsageJoin = .alone) -> CommandOption {
        CommandOption(name: name, value: nil, summary: summary, joinsNext: joinsNext)
    }
}
