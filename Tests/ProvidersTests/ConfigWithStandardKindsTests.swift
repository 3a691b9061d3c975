import Config
import Foundation
import Kind
import Providers
import Store
import Testing
import YAML

/// Issue 10, item 12: the shipped kinds' values `check` used to pass.
@Suite("widgets.yaml with the shipped kinds")
struct ConfigWithStandardKindsTests {
    let registry = KindRegistry.standard(store: StoreAccess(path: "/nonexistent/store.sqlite"))

    func load(_ yaml: String) -> ConfigLoadResult {
        ConfigLoader.load(bytes: Array(yaml.utf8), file: "widgets.yaml", registry: registry)
    }

    /// A `plugins:` command is checked as `command:` is; `check` passed a plugin that could never run.
    @Test func pluginCommandsAreCheckedAsCommandsAre() {
        let result = load(
            "plugins:\n  gone: [/nonexistent/plugin]\n  folder: [/etc]\n  fine: [/bin/sh, x]\n  none: []\n"
                + "widgets:\n  w:\n    kind: quotes\n")
        #expect(
            result.diagnostics.map(\.message) == [
                "command '/nonexistent/plugin' does not exist", "command '/etc' is a directory",
                "plugin 'none' is an empty list; write [program, arguments…]",
            ], "\(result.renderedDiagnostics())")
        #expect(result.diagnostics.map(\.mark?.line) == [2, 3, 5])
    }

    /// The plugin host's section, read through the registry's hook: its commands are the configuration's, in file
    /// order, and the early read of the file's text finds the same.
    @Test func pluginsSectionIsReadThroughTheRegistry() throws {
        let yaml = "plugins:\n  one: [/bin/sh, a]\n  two: [/bin/true]\nwidgets:\n  w:\n    kind: quotes\n"
        let configuration = try #require(load(yaml).configuration)
        let expected = [
            PluginCommand(name: "one", argv: ["/bin/sh", "a"]), PluginCommand(name: "two", argv: ["/bin/true"]),
        ]
        #expect(configuration.plugins == expected)
        #expect(ConfigLoader.plugins(bytes: Array(yaml.utf8)) == expected)
        #expect(try #require(load("widgets:\n  w:\n    kind: quotes\n").configuration).plugins.isEmpty)
        #expect(ConfigSchema.topLevelKeys(in: registry) == ["settings", "widgets", "bars", "plugins"])
        let typo = load("plugin: {}\nwidgets:\n  w:\n    kind: quotes\n")
        #expect(
            typo.diagnostics.map(\.message) == [
                "unknown top-level key 'plugin'; did you mean 'plugins'? expected 'settings', 'widgets', 'bars', "
                    + "'plugins' or an 'x-' key of your own"
            ])
    }

    struct Placement: Sendable, CustomTestStringConvertible {
        var format: String
        var line: Int
        var column: Int
        var conversion: String
        var testDescription: String { format }
    }

    /// `      format: ` is 14 columns; the value starts at column 15.
    @Test(arguments: [
        Placement(format: "\"%H:%Q\"", line: 5, column: 19, conversion: "%Q"),
        Placement(format: "'%H:%M %i'", line: 5, column: 22, conversion: "%i"),
        Placement(format: "at %H:%M%v", line: 5, column: 23, conversion: "%v"),
        Placement(format: "|\n        %H\n        %J", line: 7, column: 9, conversion: "%J"),
        // Escapes are one character of the value each.
        Placement(format: #""\u00e9\u00e9 %Q""#, line: 5, column: 29, conversion: "%Q"),
        Placement(format: "'it''s %Q'", line: 5, column: 22, conversion: "%Q"),
    ])
    func unknownClockConversionIsAnErrorAtThePercent(_ placement: Placement) throws {
        let result = load("widgets:\n  c:\n    kind: clock\n    intent:\n      format: \(placement.format)\n")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1)
        #expect(diagnostic.message.hasPrefix("unknown conversion '\(placement.conversion)' in 'format'; known: "))
        #expect(diagnostic.mark == YAMLMark(line: placement.line, column: placement.column), "\(diagnostic.headline)")
    }

    /// A script's parameters reach it as `WIDGETD_PARAM_<NAME>`: a name no shell reads, or two that map to one name,
    /// are errors at the name; they were passed on mangled, one overwriting the other.
    @Test func scriptParameterNamesMustReachTheScript() throws {
        let good = load(
            "widgets:\n  w:\n    kind: exec\n    command: [/bin/true]\n    intent: {T_WARN: 1, max-age: 2, _x9: 3}\n")
        #expect(good.configuration != nil, "\(good.renderedDiagnostics())")
        let bad = load(
            "widgets:\n  w:\n    kind: exec\n    command: [/bin/true]\n"
                + "    intent: {\"a b\": 1, \"a=b\": 2, \"é\": 3, \"9lives\": 4, \"\": 5, A_B: 6, a-b: 7}\n")
        #expect(bad.configuration == nil)
        let messages = bad.diagnostics.map(\.message)
        #expect(messages.count == 6, "\(messages)")
        #expect(messages.filter { $0.hasSuffix("(it is exported as WIDGETD_PARAM_<NAME>)") }.count == 5, "\(messages)")
        #expect(messages.last == "parameters 'A_B' and 'a-b' would both reach the script as WIDGETD_PARAM_A_B")
        #expect(bad.diagnostics.last?.mark == YAMLMark(line: 5, column: 70), "\(bad.renderedDiagnostics())")
    }

    /// The exec kind's own parameters are exported as WIDGETD_PARAM_<NAME> too: `label` beside a script's `LABEL`
    /// would both be WIDGETD_PARAM_LABEL, one winning by chance.
    @Test func aScriptParameterThatExportsAsADeclaredOneIsAnError() {
        let result = load(
            "widgets:\n  w:\n    kind: exec\n    command: [/bin/true]\n    intent: {label: a, LABEL: b}\n")
        #expect(
            result.diagnostics.map(\.message) == [
                "parameters 'label' and 'LABEL' would both reach the script as WIDGETD_PARAM_LABEL"
            ])
    }

    @Test func loneTrailingPercentIsAnError() throws {
        let result = load("widgets:\n  c:\n    kind: clock\n    intent:\n      format: \"100%\"\n")
        #expect(result.diagnostics.map(\.message) == ["'format' ends in a lone '%'; write '%%' for a percent sign"])
        #expect(result.diagnostics.first?.mark == YAMLMark(line: 5, column: 19))
    }

    @Test func knownConversionsPass() {
        let result = load(
            "widgets:\n  c:\n    kind: clock\n    intent:\n      format: \"%a %e %b %H:%M:%S %Z %% %R\"\n")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
    }

    /// A mistyped id used to fall back to the default text without a word. The suggestion quotes the stored message,
    /// which reaches `check`'s output and `list`'s table: its controls are escaped.
    @Test func wrongMotivationIdIsAnErrorNamingItWithASuggestion() async throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let kind = MotivationsKind(store: fixture.access)
        let stored = try fixture.store.motivations.add(message: "Push\u{1B}[2J\nbeyond limits.")
        var typo = Array(stored.id.prefix(8))
        typo[5] = typo[5] == "a" ? "b" : "a"
        let reference = String(typo)
        let configuration = IntentValues(["motivation": .entity(.id(reference))])
        await #expect {
            _ = try await kind.timeline(for: configuration, in: fixture.context)
        } throws: { error in
            "\(error)"
                == "no motivation with id '\(reference)'; did you mean '\(stored.id.prefix(8))' "
                + #"(Push\u{1B}[2J\nbeyond limits.)?"#
        }
    }
}
