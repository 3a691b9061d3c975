import Basics
import Control
import Text

/// Turns `CommandLine.arguments` (without the program name) into a `Command`: the options of widgetd itself here, a
/// subcommand's words by its `CommandDeclaration`. Pure: no I/O, no environment.
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
            guard let extra = rest.first else { return .version }
            throw UsageError("Unexpected argument '\(extra)' after --version.", command: nil)
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
        return try CommandDeclaration.of(name).parse(rest)
    }

    /// `help [COMMAND]`, and `help` as a command.
    static func parseHelp(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        guard let topic = arguments.first else { return .help(topic: nil) }
        // `help --help` asks for help on help.
        if arguments.count == 1, topic == "--help" || topic == "-h" {
            return .help(topic: .help)
        }
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

    /// Commands whose only option is `--config` (check, kinds, list, plugins, status, doctor, generate names).
    static func parseConfigOption(
        _ arguments: ArraySlice<String>, command: CommandName
    ) throws(UsageError) -> String? {
        var scanner = ArgumentScanner(arguments, command: command)
        var configPath: String?
        while let token = try scanner.next() {
            try scanner.takeShared(token, configPath: &configPath)
        }
        return configPath
    }
}
