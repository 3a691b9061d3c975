import Testing

@testable import CLI

/// Each subcommand's usage errors, with the exact message and the command whose usage line follows it: missing
/// arguments, one too many, a misspelt option, two targets and values the parser itself can judge.
/// (`CommandDeclarationTests` checks the scanner's errors for every option; values that need the kinds, zones or the
/// config, such as `--format html` or `--tz Nowhere`, are refused later and checked end to end in `CLIInputTests`.)
@Suite("refusing each subcommand's mistakes")
struct SubcommandParsingErrorTests {
    typealias Case = ([String], String, CommandName?)

    static let generalCases: [Case] = [
        (["help", "cron", "show"], "Unexpected argument 'show'.", .help),
        (["kinds", "--json"], "Unknown option '--json'.", .kinds),
        (["preview", "quotes", "--famliy", "x"], "Unknown option '--famliy'. Did you mean '--family'?", .preview),
        (["preview", "--set", "a=b"], "Missing KIND; 'widgetd kinds' lists them.", .preview),
        (["run", "--log-level", "loud"], "Unknown log level 'loud'; levels: debug, info, warning, error.", .run),
        (["run", "--log-levle", "info"], "Unknown option '--log-levle'. Did you mean '--log-level'?", .run),
        (["run", "now"], "Unexpected argument 'now'.", .run),
        (["list", "quote"], "Unexpected argument 'quote'.", .list),
        (["show"], "Missing NAME; 'widgetd list' shows them.", .show),
        (["show", "--follow"], "Missing NAME; 'widgetd list' shows them.", .show),
        (["show", "quote", "clock"], "Unexpected argument 'clock'.", .show),
        (["show", "quote", "--fromat", "waybar"], "Unknown option '--fromat'. Did you mean '--format'?", .show),
        (["show", "quote", "--follow=yes"], "Option '--follow' takes no value.", .show),
        (["bar", "--widgets", "a", "--bar", "top"], "--widgets and --bar both choose the widgets; give one.", .bar),
        (["bar", "top"], "Unexpected argument 'top'.", .bar),
        (["bar", "--widget", "a"], "Unknown option '--widget'. Did you mean '--widgets'?", .bar),
        (["plugins", "extra"], "Unexpected argument 'extra'.", .plugins),
        (["import", "i3blocks", "--i3blocks-config"], "Missing value for '--i3blocks-config PATH'.", .importConfig),
        (["generate", "names", "extra"], "Unexpected argument 'extra'.", .generate),
        (["generate", "man", "--config", "a.yaml"], "Name one PAGE: widgetd.1, widgets.yaml.5.", .generate),
    ]

    static let controlCases: [Case] = [
        (["reload", "quote", "clock"], "Name one target: all, --kind KIND, or NAME.", .reload),
        (["reload", "--kind", "clock", "all"], "Name one target: all, --kind KIND, or NAME.", .reload),
        (["reload", "--kind", "clock", "--kind", "quotes"], "Name one target: all, --kind KIND, or NAME.", .reload),
        (["reload", "--timeout", "0"], "--timeout needs a number of seconds from 0.001 to 86400, found '0'.", .reload),
        (
            ["reload", "--timeout", "-1"], "--timeout needs a number of seconds from 0.001 to 86400, found '-1'.",
            .reload
        ),
        (
            ["reload", "--timeout", "inf"], "--timeout needs a number of seconds from 0.001 to 86400, found 'inf'.",
            .reload
        ),
        (
            ["reload", "--timeout", "soon"], "--timeout needs a number of seconds from 0.001 to 86400, found 'soon'.",
            .reload
        ),
        (
            ["reload", "--timeout", "1e17"], "--timeout needs a number of seconds from 0.001 to 86400, found '1e17'.",
            .reload
        ),
        (
            ["reload", "--timeout", "0.0000001"],
            "--timeout needs a number of seconds from 0.001 to 86400, found '0.0000001'.", .reload
        ),
        (["reload", "--wait=1"], "Option '--wait' takes no value.", .reload),
        (["reload", "q", "--timeout", "5"], "--timeout is how long --wait waits: give --wait too.", .reload),
        (["check", "--config="], "--config needs a path, found ''.", .check),
        (["todos", "list", "--config", ""], "--config needs a path, found ''.", .todos),
        (["cron"], "Missing EXPR, e.g. '*/15 9-17 * * mon-fri' or '@daily'.", .cron),
        (["cron", "--count", "3"], "Missing EXPR, e.g. '*/15 9-17 * * mon-fri' or '@daily'.", .cron),
        (["cron", "@daily", "--count", "0"], "--count needs a number from 1 to 10000, found '0'.", .cron),
        (["cron", "@daily", "--count", "10001"], "--count needs a number from 1 to 10000, found '10001'.", .cron),
        (["cron", "@daily", "--count", "many"], "--count needs a number from 1 to 10000, found 'many'.", .cron),
        (["cron", "@daily", "--tz"], "Missing value for '--tz ZONE'.", .cron),
        (["cron", "0", "0", "*", "*", "-1"], "Unknown option '-1'.", .cron),
        (["cron", "@daily", "--form", "x"], "Unknown option '--form'. Did you mean '--from'?", .cron),
        (["click"], "Missing NAME; 'widgetd list' shows them.", .click),
        (["click", "cpu", "mem"], "Unexpected argument 'mem'.", .click),
        (["click", "cpu", "--button", "6"], "--button needs a number from 1 to 5, found '6'.", .click),
        (["click", "cpu", "--button", "left"], "--button needs a number from 1 to 5, found 'left'.", .click),
        (["click", "cpu", "--x", "5"], "Give both --x and --width, or neither.", .click),
        (["click", "cpu", "--x", "500", "--width", "100"], "--x 500 is outside the block's --width 100.", .click),
        (["click", "cpu", "--width", "50"], "Give both --x and --width, or neither.", .click),
        (["click", "cpu", "--x", "-1", "--width", "5"], "--x needs a number from 0 to 100000, found '-1'.", .click),
        (["click", "cpu", "--x", "1", "--width", "0"], "--width needs a number from 1 to 100000, found '0'.", .click),
        (["click", "cpu", "--y", "100001"], "--y needs a number from 0 to 100000, found '100001'.", .click),
        (["click", "cpu", "--height", "0"], "--height needs a number from 1 to 100000, found '0'.", .click),
        (
            ["click", "cpu", "--screen-x", "2000000"],
            "--screen-x needs a number from -1000000 to 1000000, found '2000000'.", .click
        ),
        (
            ["click", "cpu", "--screen-y", "y"], "--screen-y needs a number from -1000000 to 1000000, found 'y'.",
            .click
        ),
        (
            ["click", "cpu", "--modifiers", "Shift,Mod-4"],
            "--modifiers needs key names separated by commas, such as Shift,Mod4, found 'Shift,Mod-4'.", .click
        ),
        (
            ["click", "cpu", "--modifiers", "Shift,,Mod4"],
            "--modifiers needs key names separated by commas, such as Shift,Mod4, found 'Shift,,Mod4'.", .click
        ),
        (
            ["click", "cpu", "--modifiers", "Shift,"],
            "--modifiers needs key names separated by commas, such as Shift,Mod4, found 'Shift,'.", .click
        ),
        (["intent"], "Missing NAME and INTENT.", .intent),
        (["intent", "cpu", "--wait"], "Missing INTENT.", .intent),
        (["intent", "cpu", "next", "=v"], "Expected KEY=VALUE, found '=v'.", .intent),
    ]

    static let appCases: [Case] = [
        (["motivations"], "Missing ACTION: list, add, rm, favorite, color, search.", .motivations),
        (["motivations", "list", "x"], "'motivations list' takes no arguments.", .motivations),
        (
            ["motivations", "add", " "], "The MESSAGE is empty; write some text, or leave MESSAGE out to add a sample.",
            .motivations
        ),
        (["motivations", "rm"], "'motivations rm' takes one or more IDs.", .motivations),
        (["motivations", "favorite"], "'motivations favorite' takes one ID.", .motivations),
        (["motivations", "favorite", "a", "b"], "'motivations favorite' takes one ID.", .motivations),
        (["motivations", "color", "abcd"], "'motivations color' takes an ID and a HEX colour.", .motivations),
        (
            ["motivations", "color", "abcd", "blue"], "'blue' is not a colour; write #RGB, #RRGGBB or #RRGGBBAA.",
            .motivations
        ),
        (["motivations", "search"], "'motivations search' takes TEXT.", .motivations),
        (
            ["motivations", "ad"],
            "Unknown action 'ad'; did you mean 'add'? actions: list, add, rm, favorite, color, search.",
            .motivations
        ),
        (["motivations", "list", "--match", "x"], "Unknown option '--match'.", .motivations),
        (["todos"], "Missing ACTION: list, add, toggle, rm.", .todos),
        (["todos", "list", "all"], "'todos list' takes no arguments.", .todos),
        (["todos", "add"], "'todos add' takes a TITLE.", .todos),
        // Nothing a bar would show is as blank as white space: a zero-width space, control characters.
        (["todos", "add", "\u{200B}"], "'todos add' takes a TITLE.", .todos),
        (
            ["motivations", "add", "\u{01}\u{02}\u{200D}"],
            "The MESSAGE is empty; write some text, or leave MESSAGE out to add a sample.", .motivations
        ),
        (["todos", "toggle", " "], "'todos toggle' takes a TITLE or ID.", .todos),
        (["todos", "rm"], "'todos rm' takes a TITLE or ID.", .todos),
        (["todos", "tick", "x"], "Unknown action 'tick'; actions: list, add, toggle, rm.", .todos),
        (["entities"], "Missing KIND (motivations).", .entities),
        (["entities", "motivations", "todos"], "Give one KIND.", .entities),
        (["entities", "todos"], "Kind 'todos' has no entities; 'motivations' has.", .entities),
        (["entities", "motivations", "--match"], "Missing value for '--match TEXT'.", .entities),
    ]

    @Test(arguments: generalCases + controlCases + appCases)
    func refuses(_ arguments: [String], _ message: String, _ command: CommandName?) {
        #expect(throws: UsageError(message, command: command)) {
            try CommandLineParser.parse(arguments)
        }
    }
}
