import Config
import Foundation
import Kind
import Testing
import YAML

@testable import Providers

/// The exec kind's own widget keys and properties, read by the core's config loader through the kind's declaration.
@Suite("exec config")
struct ExecConfigTests {
    let registry = KindRegistry([ExecKind(environment: [:])])

    func load(_ yaml: String) -> ConfigLoadResult {
        ConfigLoader.load(bytes: Array(yaml.utf8), file: "widgets.yaml", registry: registry)
    }

    @Test func i3blocksKeysAndPropertiesAreRead() throws {
        let result = load(
            """
            widgets:
              cpu:
                kind: exec
                command: [./cpu_usage]
                interval: persist
                signal: 10
                format: json
                intent:
                  label: CPU
                  color: "#ff0000"
                  markup: pango
                  separator: false
                  separator_block_width: 15
                  T_WARN: "80"
            """)
        let widget = try #require(result.configuration?.widgets.first, "\(result.renderedDiagnostics())")
        #expect(widget.runMode == RunMode(blocksThread: true, timeout: nil, isPersistent: true, reloadSignal: 10))
        #expect(!widget.familyIsChosen)
        #expect(widget.settings.command("command") == ["./cpu_usage"])
        #expect(widget.intent.enumCase("markup") == "pango")
        #expect(widget.intent.bool("separator") == false)
        #expect(widget.intent.int("separator_block_width") == 15)
        #expect(widget.intent.string("T_WARN") == "80")
        let settings = ExecSettings(widget.settings)
        #expect(settings.isPersistent && settings.printsJSON && settings.signal == 10)
    }

    @Test(arguments: [
        ("signal: 31", 5, 13, "'31' is not valid for 'signal'; expected an integer 1 to 30"),
        ("format: jsno", 5, 13, "'jsno' is not valid for 'format'; did you mean 'json'?"),
        ("interval: persistent", 5, 15, "'persistent' is not a duration for 'interval'"),
        ("intent: {markup: html}", 5, 22, "'html' is not a markup for 'markup'"),
        ("intent: {color: red}", 5, 21, "'red' is not a colour for 'color'"),
        ("intent: {align: middle}", 5, 21, "'middle' is not a side for 'align'"),
        ("comand: [x]", 5, 5, "unknown key 'comand' in widget 'w'; did you mean 'command'?"),
    ])
    func mistakesNameTheirPlace(_ line: String, _ row: Int, _ column: Int, _ message: String) throws {
        let result = load("widgets:\n  w:\n    kind: exec\n    command: [x]\n    \(line)\n")
        // `x` is not on PATH: a warning, not one of the mistakes looked for here.
        let diagnostic = try #require(result.diagnostics.first { $0.severity == .error })
        #expect(diagnostic.message.hasPrefix(message), "\(diagnostic.message)")
        #expect(diagnostic.mark == YAMLMark(line: row, column: column))
    }
}
