import Foundation
import TestSupport
import Testing

/// Issue 10, item 12: bad input the CLI used to accept, and exit codes that agree across commands.
///
/// Usage errors (an unknown option, a missing argument, a malformed value) exit 64; failures that depend on the
/// config, the store or the daemon exit 1; `list` without a daemon exits 3.
@Suite("CLI input, end to end")
struct CLIInputTests {
    /// A config with one widget of each of two kinds, and the environment that keeps the store, runtime directory
    /// and outputs inside one temporary directory.
    struct Setup {
        let directory: TemporaryDirectory
        let config: String

        init() throws {
            directory = try TemporaryDirectory()
            config = try directory.write(
                "widgets.yaml",
                """
                settings:
                  output_dir: \(directory.url.path)/out
                widgets:
                  quote:
                    kind: quotes
                  clock:
                    kind: clock
                """)
        }

        var environment: [String: String] {
            [
                "XDG_DATA_HOME": directory.url.path + "/data", "XDG_RUNTIME_DIR": directory.url.path + "/run",
                "HOME": directory.url.path, "WIDGETD_CONFIG": config,
            ]
        }

        func widgetd(_ arguments: [String]) throws -> ProcessResult {
            try runWidgetd(arguments, environment: environment)
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var status: Int32
        var testDescription: String { "widgetd " + arguments.joined(separator: " ") + " → \(status)" }
    }

    /// Every command with a bad option value or argument, and the runtime failures beside them.
    static let cases: [Case] = [
        Case(arguments: ["help", "nosuch"], status: 64),
        Case(arguments: ["check", "--config"], status: 64),
        Case(arguments: ["check", "--bogus"], status: 64),
        Case(arguments: ["kinds", "extra"], status: 64),
        Case(arguments: ["preview", "nosuchkind"], status: 64),
        Case(arguments: ["preview", "clock", "--family", "huge"], status: 64),
        Case(arguments: ["preview", "clock", "--set", "format=%Q"], status: 64),
        Case(arguments: ["preview", "clock", "--set", "seconds=maybe"], status: 64),
        Case(arguments: ["run", "--log-level", "loud"], status: 64),
        Case(arguments: ["list", "--bogus"], status: 64),
        Case(arguments: ["show", "quote", "--format", "html"], status: 64),
        Case(arguments: ["show"], status: 64),
        Case(arguments: ["reload", "--kind", "quotez"], status: 64),
        Case(arguments: ["reload", "--timeout", "-1"], status: 64),
        Case(arguments: ["reload", "quote", "clock"], status: 64),
        Case(arguments: ["cron", "0 25 * * *"], status: 64),
        Case(arguments: ["cron", "@hourly", "--tz", "Nowhere/Zone"], status: 64),
        Case(arguments: ["cron", "@hourly", "--from", "yesterday"], status: 64),
        Case(arguments: ["cron", "@hourly", "--count", "0"], status: 64),
        Case(arguments: ["click", "quote", "--button", "9"], status: 64),
        Case(arguments: ["click", "quote", "--x", "5"], status: 64),
        Case(arguments: ["click", "quote", "--x", "500", "--width", "100"], status: 64),
        Case(arguments: ["intent", "quote"], status: 64),
        Case(arguments: ["intent", "quote", "next", "notkv"], status: 64),
        Case(arguments: ["motivations", "add", ""], status: 64),
        Case(arguments: ["motivations", "add", "  \t\n"], status: 64),
        Case(arguments: ["motivations", "color", "abcd", "blue"], status: 64),
        Case(arguments: ["motivations", "launch"], status: 64),
        Case(arguments: ["todos", "add", " "], status: 64),
        Case(arguments: ["entities", "todos"], status: 64),
        // Failures that depend on the config, the store or the daemon.
        Case(arguments: ["reload", "nosuch"], status: 1),
        Case(arguments: ["click", "nosuch"], status: 1),
        Case(arguments: ["intent", "nosuch", "next"], status: 1),
        Case(arguments: ["show", "nosuch"], status: 1),
        Case(arguments: ["motivations", "favorite", "ffffffff"], status: 1),
        Case(arguments: ["cron", "0 0 31 2 *"], status: 1),
        // Help is never an error.
        Case(arguments: ["help", "--help"], status: 0),
        Case(arguments: ["help", "-h"], status: 0),
        Case(arguments: ["reload", "--help"], status: 0),
    ]

    @Test(arguments: cases)
    func exitCode(_ item: Case) throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let result = try setup.widgetd(item.arguments)
        #expect(result.status == item.status, "stderr: \(result.stderr)")
        if item.status == 64 {
            #expect(result.stderr.hasPrefix("widgetd: error: "), "\(result.stderr)")
            #expect(result.stderr.contains("Usage: widgetd") || item.arguments.first == "cron")
        }
    }

    @Test func helpForHelpGoesToStandardOutput() throws {
        let result = try runWidgetd(["help", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: Show help for widgetd or one of its commands."))
        #expect(result.stderr.isEmpty)
    }

    /// `reload nosuch`, `click nosuch` and `intent nosuch …` exited 0 after writing to the FIFO for nobody.
    @Test(arguments: [["reload", "quot"], ["click", "quot"], ["intent", "quot", "next"], ["show", "quot"]])
    func unknownWidgetNameIsAnErrorWithASuggestion(_ arguments: [String]) throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let result = try setup.widgetd(arguments)
        #expect(result.status == 1)
        #expect(result.stderr == "widgetd: error: no widget 'quot' in \(setup.config); did you mean 'quote'?\n")
        // Nothing was written for a daemon: the runtime directory was never even made.
        #expect(!FileManager.default.fileExists(atPath: setup.directory.url.path + "/run/widgetd/control"))
    }

    /// `intent quote nxt` and `intent quote next bogus=1` exited 0 without `--wait`, the daemon dropping the line
    /// into its log: the CLI checks the intent and its parameters as the daemon would.
    @Test(arguments: [
        (["intent", "quote", "nxt"], "kind 'quotes' of widget 'quote' has no intent 'nxt'; did you mean 'next'?"),
        (["intent", "clock", "next"], "kind 'clock' of widget 'clock' has no intent 'next'; it has none"),
        (
            ["intent", "quote", "next", "bogus=1"],
            "quote: next: intent 'next' has no parameter 'bogus'; it takes none"
        ),
    ])
    func unknownIntentOrParameterIsAnError(arguments: [String], message: String) throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let result = try setup.widgetd(arguments)
        #expect(result.status == 1)
        #expect(result.stderr == "widgetd: error: \(message)\n")
        #expect(!FileManager.default.fileExists(atPath: setup.directory.url.path + "/run/widgetd/control"))
    }

    @Test func unknownWidgetNameWithoutACloseOneListsTheWidgets() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let result = try setup.widgetd(["reload", "weather"])
        #expect(result.stderr == "widgetd: error: no widget 'weather' in \(setup.config); widgets: quote, clock\n")
    }

    /// A config with an error elsewhere still names its widgets: the daemon runs its last good one meanwhile.
    @Test func namesAreCheckedEvenWhenTheConfigHasAnError() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        _ = try setup.directory.write("widgets.yaml", "widgets:\n  quote:\n    kind: quotez\n")
        let result = try setup.widgetd(["click", "nosuch"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("widgetd: error: no widget 'nosuch' in "))
    }

    @Test func unreadableConfigIsNamedNotTheDaemon() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let missing = setup.directory.url.path + "/missing.yaml"
        let result = try setup.widgetd(["show", "quote", "--config", missing])
        #expect(result.status == 1)
        #expect(result.stderr == "widgetd: error: cannot check widget 'quote': \(missing): no such file\n")
    }

    /// A known widget with no entry: the message says why, rather than asking whether the daemon runs.
    @Test func showWithoutADaemonSaysItIsNotRunning() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let result = try setup.widgetd(["show", "quote"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "widgetd: error: no entry for 'quote' in \(setup.directory.url.path)/out: the daemon is not running\n"
        )
    }

    /// `list` with no daemon showed the last run's texts as current and exited 0.
    @Test func listWithoutADaemonSaysSoAndExits3() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        // A record the last run left behind, which must not be shown as current.
        try FileManager.default.createDirectory(
            atPath: setup.directory.url.path + "/out", withIntermediateDirectories: true)
        let result = try setup.widgetd(["list"])
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("widgetd: daemon not running; start it with "), "\(result.stderr)")
        // Nothing the last run left is presented as current.
        #expect(result.stdout.isEmpty, "\(result.stdout)")
    }

    @Test func emptyMotivationIsRefusedAndNothingIsStored() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let result = try setup.widgetd(["motivations", "add", ""])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("widgetd: error: The MESSAGE is empty"))
        #expect(try setup.widgetd(["motivations", "list"]).stdout.hasPrefix("No motivations yet"))
    }

    /// Control characters and line breaks in stored text are shown as escapes: one row per record, no ESC sent.
    @Test func storedControlCharactersAreEscapedInLists() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let added = try setup.widgetd(["motivations", "add", "red\u{1B}[31m\nsecond\rline\\n"])
        #expect(added.status == 0)
        #expect(added.stdout.hasSuffix("  red\\u{1B}[31m\\nsecond\\rline\\\\n\n"))
        let list = try setup.widgetd(["motivations", "list"])
        #expect(list.stdout.split(separator: "\n").count == 1)
        #expect(list.stdout.hasSuffix("red\\u{1B}[31m\\nsecond\\rline\\\\n\n"))
        #expect(!list.stdout.contains("\u{1B}"))
        _ = try setup.widgetd(["todos", "add", "a\u{7}b"])
        #expect(try setup.widgetd(["todos", "list"]).stdout.contains("a\\u{7}b"))
    }
}
