import Basics
import Control
import Text

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
        case .check: return .check(configPath: try parseConfigOption(rest, command: .check))
        case .kinds: return try parseKinds(rest)
        case .preview: return try parsePreview(rest)
        case .run: return try parseRun(rest)
        case .list: return .list(configPath: try parseConfigOption(rest, command: .list))
        case .show: return try parseShow(rest)
        case .bar: return try parseBar(rest)
        case .reload: return try parseReload(rest)
        case .cron: return try parseCron(rest)
        case .click: return try parseClick(rest)
        case .intent: return try parseIntent(rest)
        case .importConfig: return try parseImport(rest)
        case .motivations, .todos, .entities: return try parseApp(name, rest)
        case .status: return .status(configPath: try parseConfigOption(rest, command: .status))
        case .doctor: return .doctor(configPath: try parseConfigOption(rest, command: .doctor))
        case .generate: return try parseGenerate(rest)
        case .plugins: return .plugins(configPath: try parseConfigOption(rest, command: .plugins))
        }
    }

    private static func parseHelp(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
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

    /// Commands whose only option is `--config` (check, list, status, doctor, generate names).
    static func parseConfigOption(
        _ arguments: ArraySlice<String>, command: CommandName
    ) throws(UsageError) -> String? {
        var scanner = ArgumentScanner(arguments, command: command)
        var configPath: String?
        while let token = try scanner.next() {
            switch token {
            case .option("--config", let inline):
                configPath = try scanner.value(of: "--config", inline: inline)
            case .option(let option, _):
                throw scanner.unknown(option)
            case .positional(let argument):
                throw scanner.unexpected(argument)
            }
        }
        return configPath
    }

    private static func parseKinds(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .kinds)
        var configPath: String?
        while let token = try scanner.next() {
            switch token {
            case .option("--config", let inline): configPath = try scanner.value(of: "--config", inline: inline)
            case .option(let option, _): throw scanner.unknown(option)
            case .positional(let argument): throw scanner.unexpected(argument)
            }
        }
        return .kinds(configPath: configPath)
    }

    private static func parsePreview(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .preview)
        var kind: String?
        var family: String?
        var settings: [ParameterSetting] = []
        var configPath: String?
        while let token = try scanner.next() {
            switch token {
            case .option("--config", let inline):
                configPath = try scanner.value(of: "--config", inline: inline)
            case .option("--family", let inline):
                family = try scanner.value(of: "--family", inline: inline)
            case .option("--set", let inline):
                let assignment = try scanner.value(of: "--set", inline: inline)
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
        return .preview(kind: kind, family: family, settings: settings, configPath: configPath)
    }

    private static func parseRun(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .run)
        var configPath: String?
        var logLevel: String?
        while let token = try scanner.next() {
            switch token {
            case .option("--config", let inline):
                configPath = try scanner.value(of: "--config", inline: inline)
            case .option("--log-level", let inline):
                let level = try scanner.value(of: "--log-level", inline: inline)
                guard ["debug", "info", "warning", "error"].contains(level) else {
                    throw UsageError(
                        "Unknown log level '\(level)'; levels: debug, info, warning, error.", command: .run)
                }
                logLevel = level
            case .option(let option, _):
                throw scanner.unknown(option)
            case .positional(let argument):
                throw scanner.unexpected(argument)
            }
        }
        return .run(configPath: configPath, logLevel: logLevel)
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
            case .option("--config", let inline):
                configPath = try scanner.value(of: "--config", inline: inline)
            case .option(let option, _):
                throw scanner.unknown(option)
            case .positional(let argument):
                guard instance == nil else { throw scanner.unexpected(argument) }
                instance = argument
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
            case .option("--config", let inline):
                configPath = try scanner.value(of: "--config", inline: inline)
            case .option(let option, _):
                throw scanner.unknown(option)
            case .positional(let argument):
                throw scanner.unexpected(argument)
            }
        }
        if widgets != nil, bar != nil {
            throw UsageError("--widgets and --bar both choose the widgets; give one.", command: .bar)
        }
        return .bar(widgets: widgets, bar: bar, configPath: configPath)
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
