import Text

/// Walks the arguments of one subcommand, telling options from positionals.
///
/// Options may be written `--name value` or `--name=value`; `--` ends the options. Only the options the command's
/// `CommandDeclaration` declares are let through: an unknown option and a value given to a flag are refused here, so a
/// parse function cannot take an option that its usage line and `--help` leave out. An option that is not repeatable
/// may still be given twice and the last one counts, so a wrapper's default can be overridden (`run --log-level`).
struct ArgumentScanner {
    private var arguments: ArraySlice<String>
    let declaration: CommandDeclaration
    private var optionsEnded = false

    init(_ arguments: ArraySlice<String>, command: CommandName) {
        self.arguments = arguments
        self.declaration = CommandDeclaration.of(command)
    }

    var command: CommandName { declaration.name }

    enum Token: Equatable {
        case option(String, inlineValue: String?)
        case positional(String)
    }

    mutating func next() throws(UsageError) -> Token? {
        guard let argument = arguments.popFirst() else { return nil }
        if optionsEnded { return .positional(argument) }
        if argument == "--" {
            optionsEnded = true
            return try next()
        }
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            return try declared(
                String(argument[..<equals]), inlineValue: String(argument[argument.index(after: equals)...]))
        }
        if argument.hasPrefix("-"), argument.count > 1 { return try declared(argument, inlineValue: nil) }
        return .positional(argument)
    }

    /// The option `written`, under its long name, if the command declares it and it is given as declared.
    private func declared(_ written: String, inlineValue: String?) throws(UsageError) -> Token {
        guard let option = declaration.option(named: written) else { throw unknown(written) }
        if option.value == nil, inlineValue != nil {
            throw UsageError("Option '\(option.name)' takes no value.", command: command)
        }
        return .option(option.name, inlineValue: inlineValue)
    }

    /// The value of an option that takes one: inline after `=`, or the next argument.
    mutating func value(of option: String, inline: String?) throws(UsageError) -> String {
        if let inline { return inline }
        guard let value = arguments.popFirst() else {
            let written = declaration.option(named: option)?.syntax ?? option
            throw UsageError("Missing value for '\(written)'.", command: command)
        }
        return value
    }

    func unknown(_ option: String) -> UsageError {
        let hint =
            Suggestion.closest(to: option, in: declaration.allOptions.map(\.name)).map { " Did you mean '\($0)'?" }
            ?? ""
        return UsageError("Unknown option '\(option)'.\(hint)", command: command)
    }

    func unexpected(_ argument: String) -> UsageError {
        UsageError("Unexpected argument '\(argument)'.", command: command)
    }

    /// A token the command has no case of its own for, read as every command reads it: `--config`'s value into
    /// `configPath`; any other option, and any positional, refused.
    mutating func takeShared(_ token: Token, configPath: inout String?) throws(UsageError) {
        switch token {
        case .option("--config", let inline):
            let path = try value(of: "--config", inline: inline)
            guard !path.isEmpty else { throw UsageError("--config needs a path, found ''.", command: command) }
            configPath = path
        case .option(let option, _):
            throw unknown(option)
        case .positional(let argument):
            throw unexpected(argument)
        }
    }

    /// As `takeShared(_:configPath:)`, for a command that takes one NAME: the first positional is it, a second one is
    /// refused.
    mutating func takeShared(_ token: Token, configPath: inout String?, name: inout String?) throws(UsageError) {
        guard case .positional(let argument) = token, name == nil else {
            return try takeShared(token, configPath: &configPath)
        }
        name = argument
    }
}
