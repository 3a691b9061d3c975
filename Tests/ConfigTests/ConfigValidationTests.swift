import Config
import Foundation
import Kind
import TestSupport
import Testing
import Timelines
import YAML

/// One mistake, the place it must be reported at, and words the message must contain.
struct ConfigMistake: CustomTestStringConvertible, Sendable {
    var name: String
    var yaml: String
    var line: Int
    var column: Int
    var fragments: [String]

    var testDescription: String { name }
}

@Suite("widgets.yaml validation")
struct ConfigValidationTests {
    static let mistakes: [ConfigMistake] = [
        ConfigMistake(
            name: "YAML syntax error", yaml: "widgets:\n  a: [1, 2\n  b: 3\n", line: 3, column: 4,
            fragments: ["flow sequence"]),
        ConfigMistake(
            name: "unknown top-level key", yaml: "widgetz: {}\nwidgets: {}\n", line: 1, column: 1,
            fragments: ["unknown top-level key 'widgetz'", "did you mean 'widgets'?"]),
        ConfigMistake(
            name: "unknown setting", yaml: "settings:\n  outputdir: /tmp\nwidgets: {}\n", line: 2, column: 3,
            fragments: ["unknown setting 'outputdir'", "did you mean 'output_dir'?"]),
        ConfigMistake(
            name: "relative path", yaml: "settings:\n  store: data/store.sqlite\nwidgets: {}\n", line: 2,
            column: 10, fragments: ["must be an absolute path or start with '~/'"]),
        ConfigMistake(
            name: "unknown widget key", yaml: "widgets:\n  w:\n    kind: sample\n    intreval: 5\n", line: 4,
            column: 5, fragments: ["unknown key 'intreval' in widget 'w'", "keys are kind, family"]),
        ConfigMistake(
            name: "missing kind", yaml: "widgets:\n  w:\n    family: systemSmall\n", line: 2, column: 3,
            fragments: ["widget 'w' has no 'kind'", "known kinds: sample"]),
        ConfigMistake(
            name: "unknown kind", yaml: "widgets:\n  w:\n    kind: sampel\n", line: 3, column: 11,
            fragments: ["unknown kind 'sampel'", "did you mean 'sample'?", "known kinds: sample"]),
        ConfigMistake(
            name: "unsupported family", yaml: "widgets:\n  w:\n    kind: sample\n    family: accessoryCircular\n",
            line: 4, column: 13,
            fragments: ["does not support family 'accessoryCircular'", "supported: systemSmall, systemMedium"]),
        ConfigMistake(
            name: "unknown family", yaml: "widgets:\n  w:\n    kind: sample\n    family: systemSmal\n", line: 4,
            column: 13, fragments: ["unknown family 'systemSmal'", "did you mean 'systemSmall'?"]),
        ConfigMistake(
            name: "unknown parameter", yaml: "widgets:\n  w:\n    kind: sample\n    intent:\n      mdoe: fast\n",
            line: 5, column: 7,
            fragments: ["unknown parameter 'mdoe' for kind 'sample'", "did you mean 'mode'?", "parameters: mode"]),
        ConfigMistake(
            name: "wrong parameter type", yaml: "widgets:\n  w:\n    kind: sample\n    intent:\n      count: many\n",
            line: 5, column: 14, fragments: ["'many' is not an integer for 'count'"]),
        ConfigMistake(
            name: "bool that is not one", yaml: "widgets:\n  w:\n    kind: sample\n    intent:\n      enabled: maybe\n",
            line: 5, column: 16, fragments: ["'maybe' is not a bool"]),
        ConfigMistake(
            name: "sequence for a scalar parameter",
            yaml: "widgets:\n  w:\n    kind: sample\n    intent:\n      label: [a, b]\n", line: 5, column: 14,
            fragments: ["'label' expects a string, found a sequence"]),
        ConfigMistake(
            name: "int out of range", yaml: "widgets:\n  w:\n    kind: sample\n    intent:\n      count: 11\n",
            line: 5, column: 14, fragments: ["11 is out of range for 'count'; expected 1 to 10"]),
        ConfigMistake(
            name: "int past 64 bits",
            yaml: "widgets:\n  w:\n    kind: sample\n    intent:\n      count: 99999999999999999999\n", line: 5,
            column: 14, fragments: ["99999999999999999999 is out of range for 'count'; expected 1 to 10"]),
        ConfigMistake(
            name: "enum value outside its cases",
            yaml: "widgets:\n  w:\n    kind: sample\n    intent:\n      mode: quick\n", line: 5, column: 13,
            fragments: ["'quick' is not a mode", "cases: fast (Fast), slow (Slow)"]),
        ConfigMistake(
            name: "bad colour hex", yaml: "widgets:\n  w:\n    kind: sample\n    intent:\n      tint: '#12345'\n",
            line: 5, column: 13, fragments: ["'#12345' is not a colour", "#RGB, #RRGGBB or #RRGGBBAA"]),
        ConfigMistake(
            name: "entity id too short", yaml: "widgets:\n  w:\n    kind: sample\n    intent:\n      record: ab\n",
            line: 5, column: 15, fragments: ["record id 'ab' is too short"]),
        ConfigMistake(
            name: "bad cron field, quoted",
            yaml: "widgets:\n  w:\n    kind: sample\n    schedule: \"*/5 25 * * *\"\n", line: 4, column: 20,
            fragments: ["bad cron expression", "hour field: 25 is out of range 0-23"]),
        ConfigMistake(
            name: "bad cron weekday name", yaml: "widgets:\n  w:\n    kind: sample\n    schedule: 0 9 * * mon-fry\n",
            line: 4, column: 27, fragments: ["day-of-week field", "'fry' is not"]),
        ConfigMistake(
            name: "cron with four fields", yaml: "widgets:\n  w:\n    kind: sample\n    schedule: 0 9 * *\n", line: 4,
            column: 22, fragments: ["expected 5 fields", "found 4"]),
        ConfigMistake(
            name: "unknown time zone", yaml: "widgets:\n  w:\n    kind: sample\n    timezone: Europe/Berln\n", line: 4,
            column: 15, fragments: ["unknown time zone 'Europe/Berln'", "did you mean 'Europe/Berlin'?"]),
        ConfigMistake(
            name: "unknown output format", yaml: "widgets:\n  w:\n    kind: sample\n    output: [plain, waybr]\n",
            line: 4, column: 21, fragments: ["unknown output format 'waybr'", "did you mean 'waybar'?"]),
        ConfigMistake(
            name: "duplicate instance names", yaml: "widgets:\n  w:\n    kind: sample\n  w:\n    kind: sample\n",
            line: 4, column: 3, fragments: ["duplicate key 'w'", "line 2"]),
        ConfigMistake(
            name: "sequence where a widget mapping belongs", yaml: "widgets:\n  w: [kind, sample]\n", line: 2,
            column: 6, fragments: ["widget 'w' must be a mapping", "found a sequence"]),
        ConfigMistake(
            name: "scalar where the widgets mapping belongs", yaml: "widgets: sample\n", line: 1, column: 10,
            fragments: ["'widgets' must be a mapping", "found a scalar"]),
        ConfigMistake(
            name: "sequence as the whole document", yaml: "- widgets\n", line: 1, column: 1,
            fragments: ["the configuration must be a mapping", "found a sequence"]),
        ConfigMistake(
            name: "unknown click button", yaml: "widgets:\n  w:\n    kind: sample\n    on_click:\n      lefft: poke\n",
            line: 5, column: 7, fragments: ["unknown button 'lefft'", "did you mean 'left'?"]),
        ConfigMistake(
            name: "unknown click intent", yaml: "widgets:\n  w:\n    kind: sample\n    on_click:\n      left: pokee\n",
            line: 5, column: 13, fragments: ["has no intent 'pokee'", "did you mean 'poke'?"]),
        ConfigMistake(
            name: "empty click program", yaml: "widgets:\n  w:\n    kind: sample\n    on_click:\n      left: [\"\"]\n",
            line: 5, column: 14, fragments: ["the command's program is empty"]),
        ConfigMistake(
            name: "missing click program",
            yaml: "widgets:\n  w:\n    kind: sample\n    on_click:\n      middle: [/nonexistent/x]\n", line: 5,
            column: 16,
            fragments: ["command '/nonexistent/x' does not exist"]),
        ConfigMistake(
            name: "bad instance name", yaml: "widgets:\n  my widget:\n    kind: sample\n", line: 2, column: 3,
            fragments: ["widget name 'my widget' may use only"]),
        ConfigMistake(
            name: "command for a kind that runs none",
            yaml: "widgets:\n  w:\n    kind: sample\n    command: [date]\n", line: 4, column: 5,
            fragments: ["'command' is only for kind 'exec'"]),
        ConfigMistake(
            name: "exec without a command", yaml: "widgets:\n  w:\n    kind: exec\n", line: 2, column: 3,
            fragments: ["widget 'w' has no 'command'"]),
        ConfigMistake(
            name: "exec command as a string", yaml: "widgets:\n  w:\n    kind: exec\n    command: date +%T\n",
            line: 4, column: 14, fragments: ["'command' must be a list"]),
        ConfigMistake(
            name: "empty exec command", yaml: "widgets:\n  w:\n    kind: exec\n    command: []\n",
            line: 4, column: 14, fragments: ["'command' is empty; write [program, arguments…]"]),
        ConfigMistake(
            name: "hexadecimal duration",
            yaml: "widgets:\n  w:\n    kind: exec\n    command: [date]\n    interval: 0x10\n", line: 5, column: 15,
            fragments: ["'0x10' is not a duration for 'interval'"]),
        ConfigMistake(
            name: "exponent duration",
            yaml: "widgets:\n  w:\n    kind: exec\n    command: [date]\n    interval: 1e2s\n", line: 5, column: 15,
            fragments: ["'1e2s' is not a duration for 'interval'"]),
        ConfigMistake(
            name: "bad duration", yaml: "widgets:\n  w:\n    kind: exec\n    command: [date]\n    interval: soon\n",
            line: 5, column: 15, fragments: ["'soon' is not a duration for 'interval'"]),
        ConfigMistake(
            name: "timeout out of range",
            yaml: "widgets:\n  w:\n    kind: exec\n    command: [date]\n    timeout: 10m\n", line: 5, column: 14,
            fragments: ["'timeout' of 10m is out of range"]),
        ConfigMistake(
            name: "empty file", yaml: "\n  \n", line: 1, column: 1, fragments: ["the file is empty"]),
        ConfigMistake(
            name: "only comments", yaml: "# nothing yet\n", line: 1, column: 1, fragments: ["only comments"]),
        ConfigMistake(
            name: "no widgets key", yaml: "settings: {}\n", line: 1, column: 1, fragments: ["no 'widgets' mapping"]),
    ]

    @Test(arguments: mistakes)
    func reportsMistakeAtItsPlace(_ mistake: ConfigMistake) throws {
        let result = loadConfig(mistake.yaml)
        #expect(result.configuration == nil)
        let diagnostic = try #require(result.diagnostics.first, "no diagnostic for \(mistake.name)")
        #expect(result.diagnostics.count == 1, "\(result.diagnostics.map(\.headline))")
        #expect(diagnostic.mark == YAMLMark(line: mistake.line, column: mistake.column), "\(diagnostic.headline)")
        for fragment in mistake.fragments {
            #expect(diagnostic.message.contains(fragment), "'\(diagnostic.message)' lacks '\(fragment)'")
        }
        #expect(diagnostic.headline.hasPrefix("widgets.yaml:\(mistake.line):\(mistake.column): error: "))
    }

    @Test func notUTF8IsReportedWhereItStarts() throws {
        var bytes = Array("widgets:\n  w:\n    kind: sa".utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array("mple\n".utf8)
        let result = ConfigLoader.load(bytes: bytes, file: "widgets.yaml", registry: .sample)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.mark == YAMLMark(line: 3, column: 13))
        #expect(diagnostic.message.contains("not valid UTF-8"))
    }

    @Test func missingFileHasNoPosition() throws {
        let result = ConfigLoader.load(path: "/nonexistent/widgets.yaml", registry: .sample)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.mark == nil)
        #expect(diagnostic.headline == "/nonexistent/widgets.yaml: error: no such file")
    }

    @Test func reportsEveryMistakeInOnePassInFileOrder() {
        let yaml = """
            widgets:
              a:
                kind: sampel
              b:
                kind: sample
                intent:
                  mode: quick
                  count: 0
              c:
                kind: sample
                schedule: "61 * * * *"
                output: tmuxx
            """
        let result = loadConfig(yaml)
        #expect(result.configuration == nil)
        #expect(
            result.diagnostics.compactMap(\.mark) == [
                YAMLMark(line: 3, column: 11), YAMLMark(line: 7, column: 13), YAMLMark(line: 8, column: 14),
                YAMLMark(line: 11, column: 16), YAMLMark(line: 12, column: 13),
            ])
    }

    /// A widget called `all` runs, but `widgetd reload all` means every widget: `check` says so.
    @Test func aWidgetCalledAllIsWarnedAbout() {
        let result = loadConfig("widgets:\n  all:\n    kind: sample\n")
        #expect(result.configuration?.widgets.map(\.name) == ["all"])
        #expect(result.diagnostics.map(\.severity) == [.warning])
        #expect(result.diagnostics.first?.message.hasPrefix("widget name 'all' is also 'widgetd reload all'") == true)
    }

    /// The daemon's restart hint for a plugin added since it started goes by the code, not by the wording.
    @Test func anUnknownKindCarriesItsCodeAndOtherMistakesNone() {
        let result = loadConfig("widgets:\n  a:\n    kind: sampel\n  b:\n    kind: sample\n    output: tmuxx\n")
        #expect(result.diagnostics.map(\.code) == [.unknownKind("sampel"), nil])
    }
    /// A value quoted in a message is the file's: its line breaks and terminal controls are escaped on the terminal,
    /// so that `check` prints one headline per mistake and cannot recolour or overwrite it.
    @Test func renderedDiagnosticEscapesTheValuesItQuotes() throws {
        let result = loadConfig(
            "widgets:\n  w:\n    kind: \"sam\\e[31mX\\rY\"\n  v:\n    kind: sample\n    schedule: |\n      0 61 * * *\n"
        )
        let rendered = result.renderedDiagnostics()
        #expect(result.diagnostics.count == 2)
        #expect(!rendered.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" }, "\(rendered.debugDescription)")
        #expect(rendered.contains(#"unknown kind 'sam\u{1B}[31mX\rY'"#), "\(rendered)")
        #expect(rendered.contains(#"bad cron expression '0 61 * * *\n'"#), "\(rendered)")
        // Two diagnostics, each a headline, its line and its caret.
        #expect(rendered.split(separator: "\n", omittingEmptySubsequences: false).count == 6, "\(rendered)")
    }

    /// No shell runs an argv, so a program written `~/…` is under the home directory, as a shell would read it: `[~/bin/s]`
    /// was run as a file under a directory named `~`. Arguments stay as written (one may be a block's text).
    @Test func commandWordsUnderTheHomeDirectoryAreExpanded() throws {
        let home = try #require(ProcessInfo.processInfo.environment["HOME"])
        let result = loadConfig(
            "widgets:\n  w:\n    kind: exec\n    command: [~/../../bin/sh, ~/x, \"~\", \"~x\", a~/b]\n"
                + "    on_click:\n      left: [~/../../bin/echo, ~/arg]\n")
        let widget = try #require(result.configuration?.widgets.first, "\(result.renderedDiagnostics())")
        #expect(widget.settings.command("command") == [home + "/../../bin/sh", "~/x", "~", "~x", "a~/b"])
        #expect(widget.onClick[.left] == .command([home + "/../../bin/echo", "~/arg"]))
        // The program is checked where it would be run from: a missing one under the home directory is named.
        let missing = loadConfig("widgets:\n  w:\n    kind: exec\n    command: [~/no-such-program-here]\n")
        #expect(
            missing.diagnostics.map(\.message) == ["command '\(home)/no-such-program-here' does not exist"],
            "\(missing.renderedDiagnostics())")
    }

    /// A kind that exports its parameters (`WidgetKind.parameterExport`) has every name held to its rule and its
    /// exported names kept apart, declared ones included; a kind that takes any name and exports none takes any name.
    @Test func parameterNamesAreHeldToTheKindsExport() throws {
        let registry = KindRegistry([ExportingKind(), CommandKind()])
        func load(_ widget: String) -> ConfigLoadResult {
            let text = "widgets:\n  w:\n" + widget
            return ConfigLoader.load(bytes: Array(text.utf8), file: "widgets.yaml", registry: registry)
        }
        let good = load("    kind: export\n    intent: {my_tag: x, other: 2}\n")
        #expect(good.configuration?.widgets.first?.intent["other"] == ParameterValue.string("2"), "\(good.diagnostics)")
        let bad = load("    kind: export\n    intent: {Level: 1, my_tag: x, my-tag: y, a-b: 1, a_b: 2}\n")
        #expect(
            bad.diagnostics.map(\.message) == [
                "parameter name 'Level' cannot reach the sample program: write lower case letters, '_' or '-' (it is "
                    + "exported as SAMPLE_<NAME>)",
                "parameters 'my_tag' and 'my-tag' would both reach the sample program as SAMPLE_MY_TAG",
                "parameters 'a-b' and 'a_b' would both reach the sample program as SAMPLE_A_B",
            ])
        let unexported = load("    kind: exec\n    command: [/bin/true]\n    intent: {\"a b\": 1, A_B: 2, a-b: 3}\n")
        #expect(unexported.diagnostics.isEmpty, "\(unexported.renderedDiagnostics())")
    }

    /// `check` said OK to an `output_dir` that is a file and a `store` that is a directory; the daemon then could not
    /// start, or every store widget failed with "unable to open database file".
    @Test func pathSettingsThatCannotWorkAreErrors() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let file = directory.appending("afile")
        FileManager.default.createFile(atPath: file, contents: Data())
        let result = loadConfig(
            "settings:\n  output_dir: \(file)\n  store: \(directory.path)\nwidgets:\n  w:\n    kind: sample\n")
        #expect(
            result.diagnostics.map(\.message) == [
                "'output_dir' '\(file)' is there but is not a directory",
                "'store' '\(directory.path)' is a directory; name the store's file in it "
                    + "('\(directory.path)/store.sqlite')",
            ], "\(result.renderedDiagnostics())")
        #expect(result.diagnostics.map(\.mark?.line) == [2, 3])
        // Under a file, neither can be made.
        let under = loadConfig(
            "settings:\n  output_dir: \(file)/sub/out\n  store: \(file)/s.sqlite\nwidgets:\n  w:\n    kind: sample\n")
        #expect(
            under.diagnostics.map(\.message) == [
                "'output_dir' '\(file)/sub/out' is under '\(file)', which is no directory",
                "'store' '\(file)/s.sqlite' is under '\(file)', which is no directory",
            ], "\(under.renderedDiagnostics())")
        // Not there yet is fine: the daemon makes the directory, the store its file.
        let fresh = loadConfig(
            "settings:\n  output_dir: \(directory.path)/out\n  store: \(directory.path)/s.sqlite\n"
                + "widgets:\n  w:\n    kind: sample\n")
        #expect(fresh.diagnostics.isEmpty, "\(fresh.renderedDiagnostics())")
    }

    /// A value quoted in a message is cut to 60 columns, whichever message quotes it (only the cron and command ones
    /// were; an unknown kind or family quoted 300 characters).
    @Test func longValuesAreCutInEveryMessage() {
        let long = String(repeating: "x", count: 200)
        let result = loadConfig(
            "\(long): 1\nwidgets:\n  w:\n    kind: \(long)\n  v:\n    kind: sample\n    family: \(long)\n"
                + "    timezone: \(long)\n    \(long): 2\n")
        #expect(result.diagnostics.count == 5, "\(result.diagnostics.map(\.message))")
        for diagnostic in result.diagnostics {
            #expect(diagnostic.message.contains(String(repeating: "x", count: 59) + "…"), "\(diagnostic.message)")
            #expect(!diagnostic.message.contains(String(repeating: "x", count: 61)), "\(diagnostic.message)")
        }
    }

    @Test func renderedDiagnosticQuotesTheLineWithACaret() throws {
        let result = loadConfig("widgets:\n  w:\n    kind: sampel\n")
        let rendered = result.renderedDiagnostics()
        #expect(
            rendered == """
                widgets.yaml:3:11: error: unknown kind 'sampel'; did you mean 'sample'? known kinds: sample, exec
                    kind: sampel
                          ^
                """)
    }

    @Test func validConfigKeepsEveryValueWithDefaults() throws {
        let yaml = """
            settings:
              output_dir: ~/.cache/widgetd
            x-shared: &shared
              output: [i3blocks, waybar]
              family: systemMedium
            widgets:
              first:
                <<: *shared
                kind: sample
                intent:
                  mode: slow
                  enabled: yes
                  label: yes
                  tint: "#abc"
                  record: {match: limits}
                schedule: "@hourly"
                timezone: Europe/Berlin
                on_click:
                  left: poke
                  right: [xdg-open, "https://example.org"]
              second:
                kind: sample
            """
        let result = loadConfig(yaml)
        let configuration = try #require(result.configuration, "\(result.renderedDiagnostics())")
        #expect(configuration.settings.outputDirectory == "~/.cache/widgetd")
        #expect(configuration.widgets.map(\.name) == ["first", "second"])
        let first = configuration.widgets[0]
        #expect(first.family == .systemMedium)
        #expect(first.outputs == [.i3blocks, .waybar])
        #expect(first.intent.enumCase("mode") == "slow")
        #expect(first.intent.bool("enabled") == true)
        #expect(first.intent.string("label") == "yes")
        #expect(first.intent.color("tint") == Color(red: 0xAA, green: 0xBB, blue: 0xCC))
        #expect(first.intent.entity("record") == .match("limits"))
        #expect(first.intent.int("count") == 3)
        #expect(first.schedule?.source == "@hourly")
        #expect(first.timeZone?.identifier == "Europe/Berlin")
        #expect(first.onClick[.left] == .intent("poke"))
        #expect(first.onClick[.right] == .command(["xdg-open", "https://example.org"]))
        let second = configuration.widgets[1]
        #expect(second.family == .systemSmall)
        #expect(second.outputs == [.plain])
        #expect(second.intent.enumCase("mode") == "fast")
    }

    @Test func aWidgetABarShowsWritesNoFileUnlessItsOutputNamesOne() throws {
        let yaml = """
            widgets:
              shown: {kind: sample}
              shownWithFile: {kind: sample, output: plain}
              shownWithNoFile: {kind: sample, output: []}
              alone: {kind: sample}
            bars:
              top: [shown, shownWithFile, shownWithNoFile]
            """
        let result = loadConfig(yaml)
        let configuration = try #require(result.configuration, "\(result.renderedDiagnostics())")
        let outputs = Dictionary(uniqueKeysWithValues: configuration.widgets.map { ($0.name, $0.outputs) })
        #expect(outputs["shown"] == [])
        #expect(outputs["shownWithFile"] == [.plain])
        #expect(outputs["shownWithNoFile"] == [])
        #expect(outputs["alone"] == [.plain])
    }

    /// How fast `check` reads 10,000 widgets is widgetd-bench's to measure; here, that a long file loads whole.
    @Test func aThousandWidgetsLoadAndCheck() throws {
        var yaml = "widgets:\n"
        for index in 0..<1_000 {
            yaml += "  w\(index):\n    kind: sample\n    family: systemSmall\n    intent:\n      mode: slow\n"
        }
        let configuration = try #require(loadConfig(yaml).configuration)
        #expect(configuration.widgets.count == 1_000)
        #expect(configuration.widgets.last?.name == "w999")
        #expect(configuration.widgets.last?.intent.enumCase("mode") == "slow")
    }
}
