import Testing

@testable import CLI

/// What each subcommand parses to, with every option it takes (`CommandDeclarationTests` walks the declarations;
/// these pin the exact `Command` for each). status, doctor and generate are in `SetupCommandParsingTests`.
@Suite("parsing each subcommand")
struct SubcommandParsingTests {
    @Test(arguments: [
        (["help", "cron"], Command.help(topic: .cron)),
        (["help", "--help"], .help(topic: .help)),
        (["help", "-h"], .help(topic: .help)),
        (["help", "import"], .help(topic: .importConfig)),
        (["cron", "-h", "--count", "0"], .help(topic: .cron)),
        (["preview", "clock"], .preview(kind: "clock", family: nil, settings: [], configPath: nil)),
        (
            ["preview", "--family=systemLarge", "clock"],
            .preview(kind: "clock", family: "systemLarge", settings: [], configPath: nil)
        ),
        (
            ["preview", "myplug", "--config", "w.yaml"],
            .preview(kind: "myplug", family: nil, settings: [], configPath: "w.yaml")
        ),
        (["run"], .run(configPath: nil, logLevel: nil)),
        // Given twice, the last counts: a wrapper's default can be overridden.
        (["run", "--log-level", "debug", "--log-level", "info"], .run(configPath: nil, logLevel: "info")),
        (["check", "--config", "a.yaml", "--config=b.yaml"], .check(configPath: "b.yaml")),
        (["run", "--config", "a.yaml", "--log-level", "warning"], .run(configPath: "a.yaml", logLevel: "warning")),
        (["run", "--log-level=debug"], .run(configPath: nil, logLevel: "debug")),
        (["list"], .list(configPath: nil)),
        (["list", "--config=a.yaml"], .list(configPath: "a.yaml")),
        (["show", "quote"], .show(instance: "quote", format: nil, follow: false, configPath: nil)),
        (
            ["show", "--format", "waybar", "quote", "--follow", "--config", "a.yaml"],
            .show(instance: "quote", format: "waybar", follow: true, configPath: "a.yaml")
        ),
        // After `--` a word that looks like an option is a name.
        (["show", "--", "--odd"], .show(instance: "--odd", format: nil, follow: false, configPath: nil)),
        (["bar"], .bar(widgets: nil, bar: nil, configPath: nil)),
        (["bar", "--widgets", " a, b ,,c"], .bar(widgets: ["a", "b", "c"], bar: nil, configPath: nil)),
        (["bar", "--bar=top", "--config", "a.yaml"], .bar(widgets: nil, bar: "top", configPath: "a.yaml")),
        (["plugins"], .plugins(configPath: nil)),
        (["plugins", "--config", "p.yaml"], .plugins(configPath: "p.yaml")),
        (
            ["import", "i3blocks", "--i3blocks-config=new.conf"],
            .importI3blocks(file: nil, i3blocksOutput: "new.conf")
        ),
    ])
    func parses(_ arguments: [String], _ expected: Command) throws {
        #expect(try CommandLineParser.parse(arguments) == expected)
    }

    @Test(arguments: [
        (["reload"], Command.reload(target: .all, wait: false, timeout: nil, configPath: nil)),
        (["reload", "all"], .reload(target: .all, wait: false, timeout: nil, configPath: nil)),
        (["reload", "--wait", "--wait"], .reload(target: .all, wait: true, timeout: nil, configPath: nil)),
        (["reload", "quote"], .reload(target: .instance("quote"), wait: false, timeout: nil, configPath: nil)),
        (
            ["reload", "--kind", "clock", "--wait", "--timeout", "2.5", "--config", "a.yaml"],
            .reload(target: .kind("clock"), wait: true, timeout: 2.5, configPath: "a.yaml")
        ),
        (["cron", "@daily"], .cron(expression: "@daily", count: 5, from: nil, timeZone: nil)),
        (
            ["cron", "*/15", "9-17", "*", "*", "mon-fri"],
            .cron(expression: "*/15 9-17 * * mon-fri", count: 5, from: nil, timeZone: nil)
        ),
        (
            ["cron", "30 2 * * *", "--count", "3", "--from", "2026-03-29T00:59:59Z", "--tz=Europe/Berlin"],
            .cron(expression: "30 2 * * *", count: 3, from: "2026-03-29T00:59:59Z", timeZone: "Europe/Berlin")
        ),
        (
            ["cron", "@hourly", "--count", "10000"],
            .cron(expression: "@hourly", count: 10000, from: nil, timeZone: nil)
        ),
        (
            ["click", "cpu"],
            .click(instance: "cpu", button: 1, relativeX: nil, width: nil, wait: false, configPath: nil)
        ),
        (
            ["click", "--wait", "cpu", "--button=5", "--config", "a.yaml"],
            .click(instance: "cpu", button: 5, relativeX: nil, width: nil, wait: true, configPath: "a.yaml")
        ),
        (
            ["intent", "cpu", "next"],
            .intent(instance: "cpu", intent: "next", parameters: [], wait: false, configPath: nil)
        ),
        (
            ["intent", "todo", "toggle", "title=Buy milk", "x=a=b", "--wait", "--config", "a.yaml"],
            .intent(
                instance: "todo", intent: "toggle",
                parameters: [
                    ParameterSetting(key: "title", value: "Buy milk"), ParameterSetting(key: "x", value: "a=b"),
                ],
                wait: true, configPath: "a.yaml")
        ),
    ])
    func parsesControlCommands(_ arguments: [String], _ expected: Command) throws {
        #expect(try CommandLineParser.parse(arguments) == expected)
    }

    @Test(arguments: [
        (["motivations", "list"], AppCommand.motivationsList),
        (["motivations", "add"], .motivationsAdd(message: nil)),
        (["motivations", "add", "Keep", "going"], .motivationsAdd(message: "Keep going")),
        (["motivations", "rm", "abcd", "ef01"], .motivationsRemove(ids: ["abcd", "ef01"])),
        (["motivations", "favorite", "abcd"], .motivationsFavorite(id: "abcd")),
        (["motivations", "color", "abcd", "#fa0"], .motivationsColor(id: "abcd", hex: "#fa0")),
        (["motivations", "search", "small", "steps"], .motivationsSearch(text: "small steps")),
        (["todos", "list"], .todosList),
        (["todos", "add", "Buy", "milk"], .todosAdd(title: "Buy milk")),
        (["todos", "toggle", "Buy milk"], .todosToggle(titleOrID: "Buy milk")),
        (["todos", "rm", "3f2a"], .todosRemove(titleOrID: "3f2a")),
        (["entities", "motivations"], .entities(kind: "motivations", match: nil)),
        (["entities", "motivations", "--match", "limits"], .entities(kind: "motivations", match: "limits")),
    ])
    func parsesAppCommands(_ arguments: [String], _ expected: AppCommand) throws {
        #expect(try CommandLineParser.parse(arguments) == .app(expected, configPath: nil))
        #expect(
            try CommandLineParser.parse(arguments + ["--config", "s.yaml"]) == .app(expected, configPath: "s.yaml"))
    }

    /// `--x`, `--y`, the screen position and the modifiers land in the click's details.
    @Test func clickPositionAndDetails() throws {
        let command = try CommandLineParser.parse([
            "click", "cpu", "--x=0", "--width=100000", "--y", "0", "--height", "1", "--screen-x=-1000000",
            "--screen-y", "1000000", "--modifiers", "Mod4",
        ])
        #expect(
            command
                == .click(
                    instance: "cpu", button: 1, relativeX: 0, width: 100_000,
                    details: .init(x: -1_000_000, y: 1_000_000, relativeY: 0, height: 1, modifiers: ["Mod4"]),
                    wait: false, configPath: nil))
    }
}
