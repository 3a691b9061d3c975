import Text

/// Walks the arguments of one subcommand, telling options from positionals.
///
/// Options may be written `--name value` or `--name=value`; `--` ends the options.
struct ArgumentScanner {
    private var arguments: ArraySlice<String>
    let command: CommandName
    /// Options this command accepts, for "did you mean".
    let knownOptions: [String]
    private var optionsEnded = false

    init(_ arguments: ArraySlice<String>, command: CommandName, knownOptions: [String]) {
        self.arguments = arguments
        self.command = command
        self.knownOptions = knownOptions + ["--help"]
    }

    enum Token: Equatable {
        case option(String, inlineValue: String?)
        case positional(String)
    }

    mutating func next() -> Token? {
        guard let argument = arguments.popFirst() else { return nil }
        if optionsEnded { return .positional(argument) }
        if argument == "--" {
            optionsEnded = true
            return next()
        }
        if argument.hasPrefix("--") {
            if let equals = argument.firstIndex(of: "=") {
                return .option(
                    String(argument[..<equals]), inlineValue: String(argument[argument.index(after: equals)...]))
            }
            return .option(argument, inlineValue: nil)
        }
        if argument == "-h" { return .option("--help", inlineValue: nil) }
        if argument.hasPrefix("-"), argument.count > 1 { return .option(argument, inlineValue: nil) }
        return .positional(argument)
    }

    /// The value of an option that takes one: inline after `=`, or the next argument.
    mutating func value(of option: String, inline: String?, placeholder: String) throws(UsageError) -> String {
        if let inline { return inline }
        guard let value = arguments.popFirst() else {
            throw UsageError("Missing value for '\(option) \(placeholder)'.", command: command)
        }
        return value
    }

    func unknown(_ option: String) -> UsageError {
        let hint = Suggestion.closest(to: option, in: knownOptions).map { " Did you mean '\($0)'?" } ?? ""
        return UsageError("Unknown option '\(option)'.\(hint)", command: command)
    }

    func unexpected(_ argument: String) -> UsageError {
        UsageError("Unexpected argument '\(argument)'.", command: command)
    }

    /// Rejects a value given to an option that takes none (`--help=yes`).
    func flag(_ option: String, inline: String?) throws(UsageError) {
        if inline != nil {
            throw UsageError("Option '\(option)' takes no value.", command: command)
        }
    }
}
