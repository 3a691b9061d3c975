import Testing

@testable import CLI

@Suite("command-line parsing")
struct CommandLineParserTests {
    @Test(arguments: [
        (["check"], Command.check(configPath: nil)),
        (["check", "--config", "a.yaml"], .check(configPath: "a.yaml")),
        (["check", "--config=a.yaml"], .check(configPath: "a.yaml")),
        (["kinds"], .kinds(configPath: nil)),
        (["kinds", "--config", "w.yaml"], .kinds(configPath: "w.yaml")),
        (["help"], .help(topic: nil)),
        (["--help"], .help(topic: nil)),
        (["-h"], .help(topic: nil)),
        (["help", "preview"], .help(topic: .preview)),
        (["check", "--bogus", "--help"], .help(topic: .check)),
        (["--version"], .version),
        (["import", "i3blocks"], .importI3blocks(file: nil, i3blocksOutput: nil)),
        (["import", "i3status", "/etc/i3status.conf"], .importI3status(file: "/etc/i3status.conf")),
        (
            ["import", "i3blocks", "old.conf", "--i3blocks-config", "new.conf"],
            .importI3blocks(file: "old.conf", i3blocksOutput: "new.conf")
        ),
        (
            [
                "click", "cpu", "--button", "3", "--x", "4", "--width", "50", "--y", "2", "--height", "20",
                "--screen-x", "-40", "--screen-y", "1060", "--modifiers", "Shift,Mod4",
            ],
            .click(
                instance: "cpu", button: 3, relativeX: 4, width: 50,
                details: .init(x: -40, y: 1060, relativeY: 2, height: 20, modifiers: ["Shift", "Mod4"]), wait: false,
                configPath: nil)
        ),
        (
            ["preview", "quotes", "--family", "systemSmall", "--set", "category=focus", "--set=x=a=b"],
            .preview(
                kind: "quotes", family: "systemSmall",
                settings: [
                    ParameterSetting(key: "category", value: "focus"), ParameterSetting(key: "x", value: "a=b"),
                ],
                configPath: nil)
        ),
    ])
    func parses(_ arguments: [String], _ expected: Command) throws {
        #expect(try CommandLineParser.parse(arguments) == expected)
    }

    @Test(
        arguments: [
            ([], "Missing command.", nil),
            (["chek"], "Unknown command 'chek'. Did you mean 'check'?", nil),
            (["--verison"], "Unknown option '--verison'. Did you mean '--version'?", nil),
            (["--version", "extra"], "Unexpected argument 'extra' after --version.", nil),
            (["check", "--confg", "x"], "Unknown option '--confg'. Did you mean '--config'?", CommandName.check),
            (["check", "--config"], "Missing value for '--config PATH'.", .check),
            (["check", "extra"], "Unexpected argument 'extra'.", .check),
            (["kinds", "all"], "Unexpected argument 'all'.", .kinds),
            (["preview"], "Missing KIND; 'widgetd kinds' lists them.", .preview),
            (
                ["preview", "quotes", "--set", "category"], "Expected KEY=VALUE after '--set', found 'category'.",
                .preview
            ),
            (["preview", "quotes", "--set", "=focus"], "Expected KEY=VALUE after '--set', found '=focus'.", .preview),
            (["preview", "quotes", "clock"], "Unexpected argument 'clock'.", .preview),
            (["help", "prevew"], "Unknown command 'prevew'. Did you mean 'preview'?", .help),
            (["import"], "Missing what to import from; widgetd imports from i3blocks or i3status.", .importConfig),
            (["import", "polybar"], "widgetd imports from i3blocks or i3status only, not 'polybar'.", .importConfig),
            (["import", "i3blocks", "a", "b"], "Unexpected argument 'b'.", .importConfig),
            (
                ["click", "cpu", "--modifiers", "Shift+Mod4"],
                "--modifiers needs key names separated by commas, such as Shift,Mod4, found 'Shift+Mod4'.", .click
            ),
        ] as [([String], String, CommandName?)])
    func refuses(_ arguments: [String], _ message: String, _ command: CommandName?) {
        #expect(throws: UsageError(message, command: command)) {
            try CommandLineParser.parse(arguments)
        }
    }

    @Test func configPathPrecedence() {
        let home = ["HOME": "/home/u"]
        #expect(ConfigPath.resolve(explicit: nil, environment: home) == "/home/u/.config/widgetd/widgets.yaml")
        #expect(
            ConfigPath.resolve(explicit: nil, environment: home.merging(["XDG_CONFIG_HOME": "/x"]) { $1 })
                == "/x/widgetd/widgets.yaml")
        #expect(
            ConfigPath.resolve(explicit: nil, environment: home.merging(["XDG_CONFIG_HOME": "relative"]) { $1 })
                == "/home/u/.config/widgetd/widgets.yaml")
        #expect(
            ConfigPath.resolve(explicit: nil, environment: ["WIDGETD_CONFIG": "/w.yaml", "XDG_CONFIG_HOME": "/x"])
                == "/w.yaml")
        #expect(ConfigPath.resolve(explicit: "/c.yaml", environment: ["WIDGETD_CONFIG": "/w.yaml"]) == "/c.yaml")
    }

    /// Every command has its own help, reached by `help COMMAND`, `COMMAND --help` and `COMMAND -h`, laid out as
    /// swift-argument-parser's: an overview of its own, the usage line, each argument and option with an explanation.
    @Test(arguments: CommandName.allCases)
    func everyCommandHasHelp(_ command: CommandName) throws {
        #expect(try CommandLineParser.parse(["help", command.rawValue]) == .help(topic: command))
        #expect(try CommandLineParser.parse([command.rawValue, "--help"]) == .help(topic: command))
        #expect(try CommandLineParser.parse([command.rawValue, "-h"]) == .help(topic: command))
        let declaration = CommandDeclaration.of(command)
        let page = Help.page(of: command)
        let text = Help.text(for: command)
        let sections = text.split(separator: "\n\n").map { $0.split(separator: "\n", maxSplits: 1).first ?? "" }
        #expect(sections.first?.hasPrefix("OVERVIEW: ") == true)
        #expect(sections.dropFirst().first == "USAGE: \(Help.usage(of: command))"[...])
        #expect(sections.last == "OPTIONS:")
        #expect(page.arguments.isEmpty != sections.contains("ARGUMENTS:"))
        // An overview of its own, not a copy of another command's or the one-line summary.
        #expect(page.overview.count > declaration.summary.count)
        for other in CommandName.allCases where other != command {
            #expect(page.overview != CommandDeclaration.of(other).overview, "\(command) and \(other) share an overview")
        }
        #expect(Help.usage(of: command).hasPrefix("widgetd \(command.rawValue)"))
        // Every argument and option row explains itself, and the last option is --help.
        for (syntax, explanation) in page.arguments + page.options {
            #expect(!syntax.isEmpty && explanation.hasSuffix("."), "\(command): '\(syntax)' '\(explanation)'")
            #expect(text.contains(Help.row((syntax, explanation))), "\(command)'s help lacks \(syntax)")
        }
        #expect(page.options.last?.0 == "-h, --help")
        // `widgetd help` lists every command but the hidden one, with its summary.
        let overview = Help.text(for: nil)
        #expect(overview.contains(Help.row((command.rawValue, declaration.summary))) != declaration.isHidden)
    }
}
