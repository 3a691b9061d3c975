import Testing

@testable import CLI

@Suite("parsing status, doctor and generate")
struct SetupCommandParsingTests {
    @Test(arguments: [
        (["status"], Command.status(configPath: nil)),
        (["status", "--config", "a.yaml"], .status(configPath: "a.yaml")),
        (["doctor", "--config=a.yaml"], .doctor(configPath: "a.yaml")),
        (["generate", "man", "widgetd.1"], .generate(.manPage(.widgetd))),
        (["generate", "man", "widgets.yaml.5"], .generate(.manPage(.config))),
        (["generate", "completion", "fish"], .generate(.completion(.fish))),
        (["generate", "names"], .generate(.names(configPath: nil))),
        (["generate", "names", "--config", "a.yaml"], .generate(.names(configPath: "a.yaml"))),
    ])
    func parses(_ arguments: [String], _ expected: Command) throws {
        #expect(try CommandLineParser.parse(arguments) == expected)
    }

    @Test(
        arguments: [
            (["status", "x"], "Unexpected argument 'x'.", CommandName.status),
            (["doctor", "--fix"], "Unknown option '--fix'.", .doctor),
            (["generate"], "Missing what to generate: man, completion or names.", .generate),
            (["generate", "man"], "Name one PAGE: widgetd.1, widgets.yaml.5.", .generate),
            (["generate", "completion", "tcsh"], "Name one SHELL: bash, zsh, fish.", .generate),
            (["generate", "mann"], "Unknown item 'mann'; did you mean 'man'? man, completion or names.", .generate),
        ] as [([String], String, CommandName?)])
    func refuses(_ arguments: [String], _ message: String, _ command: CommandName?) {
        #expect(throws: UsageError(message, command: command)) {
            try CommandLineParser.parse(arguments)
        }
    }

    @Test func generateIsHiddenFromTheOverviewButHasHelp() {
        #expect(!Help.text(for: nil).contains("generate"))
        #expect(Help.text(for: .generate).contains("widgetd generate man PAGE"))
    }
}
