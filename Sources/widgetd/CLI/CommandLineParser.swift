import Scheduler

/// Turns `CommandLine.arguments` (without the program name) into a `Command`. Pure: no I/O, no environment.
enum CommandLineParser {
    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let first = arguments.first else {
            throw UsageError("Missing command.", command: nil)
        }
        let rest = arguments.dropFirst()
        switch first {
        case "--help", "-h":
            return .help(topic: nil)
        case "--version":
            return .version
        case "help":
            return try parseHelp(rest)
        default:
            break
        }
        guard let name = CommandName(rawValue: first) else {
            let names = CommandName.allCases.map(\.rawValue)
            if first.hasPrefix("-") {
                let hint = Suggestion.closest(to: first, in: ["--help", "--version"]).map { " Did you mean '\($0)'?" }
                throw UsageError("Unknown option '\(first)'.\(hint ?? "")", command: nil)
            }
            let hint = Suggestion.closest(to: first, in: names).map { " Did you mean '\($0)'?" } ?? ""
            throw UsageError("Unknown command '\(first)'.\(hint)", command: nil)
        }
        // `--help` anywhere before `--` wins over every other mistake on the line.
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            return .help(topic: name)
        }
        switch name {
        case .help: return try parseHelp(rest)
        case .check: return try parseCheck(rest)
        case .kinds: return try parseKinds(rest)
        case .preview: return try parsePreview(rest)
        }
    }

    private static func parseHelp(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        guard let topic = arguments.first else { return .help(topic: nil) }
        guard arguments.count == 1 else {
            throw UsageError("Unexpected argument '\(arguments.dropFirst().first ?? "")'.", command: .help)
        }
        guard let name = CommandName(rawValue: topic) else {
            let hint =
                Suggestion.closest(to: topic, in: CommandName.allCases.map(\.rawValue))
                .map { " Did you mean '\($0)'?" } ?? ""
            throw UsageError("Unknown command '\(topic)'.\(hint)", command: .help)
        }
        return .help(topic: name)
    }

    private static func parseCheck(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .check, knownOptions: ["--config"])
        var configPath: String?
        while let token = scanner.next() {
            switch token {
            case .option("--config", let inline):
                configPath = try scanner.value(of: "--config", inline: inline, placeholder: "PATH")
            case .option(let option, _):
                throw scanner.unknown(option)
            case .positional(let argument):
                throw scanner.unexpected(argument)
            }
        }
        return .check(configPath: configPath)
    }

    private static func parseKinds(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .kinds, knownOptions: [])
        if let token = scanner.next() {
            switch token {
            case .option(let option, _): throw scanner.unknown(option)
            case .positional(let argument): throw scanner.unexpected(argument)
            }
        }
        return .kinds
    }

    private static func parsePreview(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .preview, knownOptions: ["--family", "--set"])
        var kind: String?
        var family: String?
        var settings: [ParameterSetting] = []
        while let token = scanner.next() {
            switch token {
            case .option("--family", let inline):
                family = try scanner.value(of: "--family", inline: inline, placeholder: "FAMILY")
            case .option("--set", let inline):
                let assignment = try scanner.value(of: "--set", inline: inline, placeholder: "KEY=VALUE")
                guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                    throw UsageError("Expected KEY=VALUE after '--set', found '\(assignment)'.", command: .preview)
                }
                settings.append(
                    ParameterSetting(
                        key: String(assignment[..<equals]),
                        value: String(assignment[assignment.index(after: equals)...])))
            case .option(let option, _):
                throw scanner.unknown(option)
            case .positional(let argument):
                guard kind == nil else { throw scanner.unexpected(argument) }
                kind = argument
            }
        }
        guard let kind else {
            throw UsageError("Missing KIND; 'widgetd kinds' lists them.", command: .preview)
        }
        return .preview(kind: kind, family: family, settings: settings)
    }
}
