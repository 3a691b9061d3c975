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
    }

    var name: String
    /// A one-dash alias (`-h`), if any.
    var shortName: String? = nil
    /// The name of its value as usage and help write it (`PATH`); nil for a flag, which takes no value.
    var value: String?
    /// Given more than once, each counts (`--set`); for any other option the last one given counts.
    var repeatable = false
    var summary: String
    var joinsNext: UsageJoin = .alone

    /// `--format FORMAT`, `--follow`: the option as help and error messages write it.
    var syntax: String { value.map { "\(name) \($0)" } ?? name }
}

/// What one subcommand accepts: its positional arguments and its options.
///
/// The parser asks its `ArgumentScanner` for options, and the scanner accepts only the options named here, with the
/// values they declare; the usage line, `--help`, widgetd(1) and the completions are written from the same table, so
/// none of them can name an option the parser refuses or leave out one it takes.
struct CommandSyntax {
    var command: CommandName
    /// The positional part of the usage line (`NAME`, `[all | {--kind} | NAME]`); `{--kind}` stands for that option
    /// written with its value, which the options part then leaves out.
    var usageArguments = ""
    /// Positional arguments (or actions, for `motivations` and `todos`) and what each means, as --help lists them.
    var arguments: [(String, String)] = []
    var options: [CommandOption] = []

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
        var words = ["widgetd", command.rawValue]
        var arguments = usageArguments
        var inArguments: [String] = []
        for option in options where arguments.contains("{\(option.name)}") {
            arguments = arguments.replacing("{\(option.name)}", with: option.syntax)
            inArguments.append(option.name)
        }
        if !arguments.isEmpty { words.append(arguments) }
        var group: [String] = []
        for option in options where !inArguments.contains(option.name) {
            group.append(option.syntax + (option.repeatable ? " ..." : ""))
            switch option.joinsNext {
            case .alone:
                words.append("[" + group.joined() + "]")
                group = []
            case .and: group.append(" ")
            case .or: group.append(" | ")
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
}
