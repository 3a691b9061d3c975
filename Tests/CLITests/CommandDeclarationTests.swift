import Testing

@testable import CLI

/// Walks every option of every subcommand's `CommandDeclaration`: each appears in the usage line and in --help, the parser
/// takes it (and it changes what was parsed), and the scanner's errors — a missing value, a value given to a flag, an
/// unknown option — read the same for every command.
@Suite("every option declared: usage, help and parser agree")
struct CommandDeclarationTests {
    /// The least each command needs to parse, so that an option can be added to it.
    static let base: [CommandName: [String]] = [
        .importConfig: ["i3blocks"], .preview: ["quotes"], .show: ["quote"], .cron: ["@daily"], .click: ["cpu"],
        .intent: ["cpu", "next"], .motivations: ["list"], .todos: ["list"], .entities: ["motivations"],
        .generate: ["names"],
    ]

    /// A valid value for each value name the declarations use; a new value name must be given one here.
    static let sampleValues: [String: String] = [
        "PATH": "a.yaml", "LEVEL": "debug", "FORMAT": "waybar", "FAMILY": "systemSmall", "KEY=VALUE": "k=v",
        "NAME,NAME,...": "a,b", "NAME": "top", "KIND": "quotes", "SECONDS": "2", "N": "3",
        "ISO8601": "2026-11-29T19:30:00Z", "ZONE": "UTC", "X": "4", "W": "50", "Y": "2", "H": "20", "KEYS": "Shift",
        "TEXT": "focus",
    ]

    /// One option of one command, for parameterized tests.
    struct Case: CustomTestStringConvertible, Sendable {
        var command: CommandName
        var option: String
        var testDescription: String { "\(command.rawValue) \(option)" }

        var syntax: CommandDeclaration { CommandDeclaration.of(command) }
        var declared: CommandOption { syntax.option(named: option)! }
        var base: [String] { [command.rawValue] + (CommandDeclarationTests.base[command] ?? []) }

        /// The option as typed, with a sample value when it takes one.
        func written() throws -> [String] {
            guard let value = declared.value else { return [option] }
            let sample = try #require(CommandDeclarationTests.sampleValues[value], "no sample value for \(value)")
            return [option, sample]
        }

        /// The second of two options given together (`--width` after `--x`), which shares the first's help row.
        var isSecondOfPair: Bool {
            let options = syntax.options
            guard let index = options.firstIndex(where: { $0.name == option }), index > 0 else { return false }
            return options[index - 1].joinsNext == .and
        }

        /// The options given together with this one (`--x` with `--width`, `--wait` with `--timeout`), as typed.
        func partners() throws -> [String] {
            let options = syntax.options
            let index = try #require(options.firstIndex { $0.name == option })
            var partners: [String] = []
            if index > 0, [.and, .optionallyWith].contains(options[index - 1].joinsNext) {
                partners += try Case(command: command, option: options[index - 1].name).written()
            }
            if options[index].joinsNext == .and, index + 1 < options.count {
                partners += try Case(command: command, option: options[index + 1].name).written()
            }
            return partners
        }
    }

    static let cases: [Case] = CommandName.allCases.flatMap { command in
        CommandDeclaration.of(command).options.map { Case(command: command, option: $0.name) }
    }

    @Test func everyCommandHasADeclarationAndTheDeclarationsHaveOptions() {
        #expect(Self.cases.count >= 30, "\(Self.cases.count) options declared")
        for command in CommandName.allCases {
            let syntax = CommandDeclaration.of(command)
            #expect(syntax.name == command, "\(command)'s declaration is \(syntax.name)'s")
            #expect(Set(syntax.options.map(\.name)).count == syntax.options.count, "\(command) names an option twice")
            #expect(syntax.usage.hasPrefix("widgetd \(command.rawValue)"))
            #expect(!syntax.usage.contains("{"), "\(command)'s usage names an option it lacks: \(syntax.usage)")
        }
    }

    @Test(arguments: cases)
    func appearsInUsage(_ item: Case) {
        let usage = Help.usage(of: item.command)
        let declared = item.declared
        #expect(usage.contains(declared.syntax), "usage: \(usage)")
        #expect(usage.contains(declared.syntax + " ...") == declared.repeatable, "usage: \(usage)")
    }

    @Test(arguments: cases)
    func appearsInHelp(_ item: Case) throws {
        let text = Help.text(for: item.command)
        let options = try #require(text.split(separator: "OPTIONS:\n").last)
        let rows = options.split(separator: "\n").map { $0.dropFirst(2).prefix(24) + " " }
        #expect(rows.contains { $0.hasPrefix(item.declared.syntax + " ") || $0.contains(" \(item.declared.syntax) ") })
        if !item.isSecondOfPair {
            // The whole explanation, however help wraps it.
            func words(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            #expect(words(text).contains(words(item.declared.summary)))
        }
        #expect(rows.contains { $0.hasPrefix("-h, --help ") })
    }

    /// Help fits a terminal: every explanation is wrapped to `Help.width`, as the overviews are by hand (the usage
    /// line, one command's whole syntax, is the one line that may run on).
    @Test(arguments: CommandName.allCases)
    func helpLinesFitTheWidth(_ command: CommandName) {
        for line in Help.text(for: command).split(separator: "\n") where !line.hasPrefix("USAGE:") {
            #expect(line.count <= Help.width, "\(command.rawValue): \(line)")
        }
    }

    @Test(arguments: cases)
    func isAcceptedAndChangesTheCommand(_ item: Case) throws {
        // Without the option (or the pair it belongs to) the command still parses, and to something else.
        let without = try CommandLineParser.parse(item.base)
        let given = try CommandLineParser.parse(item.base + item.partners() + item.written())
        #expect(given != without, "\(item.option) was accepted but ignored")
        let inline = try item.written().joined(separator: "=")
        #expect(try CommandLineParser.parse(item.base + item.partners() + [inline]) == given)
        if item.declared.repeatable {
            #expect(try CommandLineParser.parse(item.base + item.partners() + item.written() + item.written()) != given)
        }
    }

    /// Given twice, a repeatable option counts twice (above); any other counts once, the last one given — except
    /// `reload --kind`, which names a target, and reload takes one target (`SubcommandParsingErrorTests`). Only those
    /// options are its cases, so that none passes without a check.
    @Test(arguments: cases.filter { $0.testDescription != "reload --kind" && !$0.declared.repeatable })
    func givenTwiceCountsOnceUnlessRepeatable(_ item: Case) throws {
        let once = try CommandLineParser.parse(item.base + item.partners() + item.written())
        #expect(try CommandLineParser.parse(item.base + item.partners() + item.written() + item.written()) == once)
    }

    @Test(arguments: cases)
    func missingValueOrValueForAFlagIsRefused(_ item: Case) throws {
        if let value = item.declared.value {
            #expect(throws: UsageError("Missing value for '\(item.option) \(value)'.", command: item.command)) {
                try CommandLineParser.parse(item.base + item.partners() + [item.option])
            }
        } else {
            #expect(throws: UsageError("Option '\(item.option)' takes no value.", command: item.command)) {
                try CommandLineParser.parse(item.base + [item.option + "=yes"])
            }
        }
    }

    /// An option no command declares is refused by every command, `--help` names the command, and so does `-h`.
    @Test(arguments: CommandName.allCases.filter { $0 != .help })
    func unknownOptionIsRefusedAndHelpIsAlwaysTaken(_ command: CommandName) throws {
        let base = [command.rawValue] + (Self.base[command] ?? [])
        #expect(throws: UsageError("Unknown option '--no-such-option'.", command: command)) {
            try CommandLineParser.parse(base + ["--no-such-option"])
        }
        #expect(throws: UsageError("Unknown option '-q'.", command: command)) {
            try CommandLineParser.parse(base + ["-q"])
        }
        #expect(try CommandLineParser.parse(base + ["--help"]) == .help(topic: command))
        #expect(try CommandLineParser.parse(base + ["-h"]) == .help(topic: command))
    }
}
