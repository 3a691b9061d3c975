import Foundation
import TestSupport
import Testing

/// The built binary, run as a user runs it.
@Suite("widgetd CLI, end to end")
struct EndToEndCLITests {
    @Test func shippedConfigPasses() throws {
        let result = try runWidgetd([
            "check", "--config", packageRoot.appendingPathComponent("config/widgets.yaml").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "10 widgets OK\n")
    }

    @Test func configWithOneOfEachMistakeReportsThemAllAtTheirPlaces() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(
            "widgets.yaml",
            """
            settings:
              output_dir: relative/out
              colour: red
            widgetz: {}
            widgets:
              no_kind:
                family: systemSmall
              bad_kind:
                kind: quote
              bad_family:
                kind: quotes
                family: accessoryCircular
              bad_param:
                kind: quotes
                intent:
                  categroy: focus
              bad_enum:
                kind: quotes
                intent:
                  category: happy
              bad_type:
                kind: quotes
                intent:
                  category: [focus]
              bad_cron:
                kind: quotes
                schedule: "61 * * * *"
              bad_output:
                kind: quotes
                output: [i3blocks, i3bra]
              bad_key:
                kind: quotes
                intreval: 5
              seq_widget: [1, 2]
              scalar_widget: hello
              dup:
                kind: quotes
              dup:
                kind: quotes
              bad_tz:
                kind: quotes
                timezone: Mars/Olympus

            """)
        let result = try runWidgetd(["check", "--config", path])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        let headlines = result.stderr.split(separator: "\n").filter { $0.hasPrefix(path) }.map {
            String($0.dropFirst(path.count + 1))
        }
        let expected = [
            "2:15: error: 'output_dir' must be an absolute path or start with '~/', found 'relative/out'",
            "3:3: error: unknown setting 'colour'; settings are output_dir, store",
            "4:1: error: unknown top-level key 'widgetz'; did you mean 'widgets'?",
            "6:3: error: widget 'no_kind' has no 'kind'; known kinds: quotes",
            "9:11: error: unknown kind 'quote'; did you mean 'quotes'? known kinds: quotes",
            "12:13: error: kind 'quotes' does not support family 'accessoryCircular'",
            "16:7: error: unknown parameter 'categroy' for kind 'quotes'; did you mean 'category'?",
            "20:17: error: 'happy' is not a category for 'category'",
            "24:17: error: 'category' expects one of its cases, found a sequence",
            "27:16: error: bad cron expression '61 * * * *': minute field: 61 is out of range 0-59",
            "30:24: error: unknown output format 'i3bra'; did you mean 'i3bar'?",
            "33:5: error: unknown key 'intreval' in widget 'bad_key'",
            "34:15: error: widget 'seq_widget' must be a mapping",
            "35:18: error: widget 'scalar_widget' must be a mapping",
            "38:3: error: duplicate key 'dup' (first at line 36, column 3)",
            "42:15: error: unknown time zone 'Mars/Olympus'",
        ]
        #expect(headlines.count == expected.count, "\(result.stderr)")
        for (headline, prefix) in zip(headlines, expected) {
            #expect(headline.hasPrefix(prefix), "'\(headline)' should start with '\(prefix)'")
        }
        #expect(result.stderr.contains("\n    kind: quote\n          ^\n"))
        #expect(result.stderr.hasSuffix("16 errors in \(path)\n"))
    }

    /// No config yet: `check` and `doctor` say how to start from the example that ships beside the binary (here the
    /// checkout's `config/widgets.yaml`), where they said only "no such file".
    @Test func aMissingConfigIsAnsweredWithTheExample() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.url.path + "/cfg/widgetd/widgets.yaml"
        let example = packageRoot.appendingPathComponent("config/widgets.yaml").path
        let advice =
            "start from the example: mkdir -p '\(directory.url.path)/cfg/widgetd' && cp '\(example)' '\(missing)'"
        let check = try runWidgetd(["check", "--config", missing])
        #expect(check.status == 1)
        #expect(check.stderr.hasSuffix(advice + "\n"), "\(check.stderr)")
        let doctor = try runWidgetd(
            ["doctor", "--config", missing], environment: ["XDG_RUNTIME_DIR": directory.url.path + "/run"])
        #expect(doctor.stdout.contains("error   \(missing) does not exist\n        fix: \(advice)"), "\(doctor.stdout)")

        // A dotfile manager's link to a file not there: the error says where it points, and the copy goes there.
        let link = directory.url.path + "/linked.yaml"
        let target = directory.url.path + "/dotfiles/widgets.yaml"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let dangling = try runWidgetd(["check", "--config", link])
        #expect(dangling.stderr.hasPrefix("\(link): error: a link to \(target), which does not exist\n"))
        #expect(
            dangling.stderr.hasSuffix(
                "start from the example: mkdir -p '\(directory.url.path)/dotfiles' && cp '\(example)' '\(target)'\n"),
            "\(dangling.stderr)")

        // A directory that is there needs no mkdir.
        let inPlace = directory.url.path + "/widgets.yaml"
        let there = try runWidgetd(["check", "--config", inPlace])
        #expect(there.stderr.hasSuffix("start from the example: cp '\(example)' '\(inPlace)'\n"), "\(there.stderr)")
    }

    @Test func checkReadsTheConfigFromTheEnvironment() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("widgetd"), withIntermediateDirectories: true)
        _ = try directory.write("widgetd/widgets.yaml", "widgets:\n  q:\n    kind: quotes\n")
        let viaXDG = try runWidgetd(["check"], environment: ["XDG_CONFIG_HOME": directory.url.path])
        #expect(viaXDG.stdout == "1 widget OK\n")
        let missing = try runWidgetd(["check"], environment: ["WIDGETD_CONFIG": directory.url.path + "/none.yaml"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("\(directory.url.path)/none.yaml: error: no such file\n"))
    }

    /// `--config <(envsubst < widgets.yaml)`: a pipe is read once, though a command reads its config twice (the
    /// plugins first, then the whole); and an unreadable file names its reason.
    @Test func aConfigFromAPipeIsCheckedAndAnUnreadableOneSaysWhy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c", "\"$W\" check --config <(printf 'widgets:\\n  q:\\n    kind: quotes\\n') > \"$D/out\" 2>&1",
        ]
        process.environment = ["W": widgetdBinary.path, "D": directory.url.path, "PATH": "/usr/bin:/bin"]
        try process.run()
        try process.waitForExitOrThrow()
        let output = try String(contentsOfFile: directory.url.path + "/out", encoding: .utf8)
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output == "1 widget OK\n")

        let device = try runWidgetd(["check", "--config", "/dev/null"])
        #expect(device.stderr.hasPrefix("/dev/null:1:1: error: the file is empty"), "\(device.stderr)")
        let folder = try runWidgetd(["check", "--config", directory.url.path])
        #expect(folder.stderr.hasPrefix("\(directory.url.path): error: is a directory, not a file"))
    }

    @Test func previewPrintsAFocusQuoteWithinTheSmallBudget() throws {
        let result = try runWidgetd(["preview", "quotes", "--set", "category=focus", "--family", "systemSmall"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout.trimmingCharacters(in: .newlines)
        let focusQuotes = [
            "One thing at a time.", "Close the other tabs.", "Depth over breadth.", "Finish, then switch.",
            "Guard your attention.", "Single-task this hour.",
        ]
        #expect(focusQuotes.contains(text), "'\(text)' is not a focus quote")
        #expect(text.count <= 24)
    }

    /// A preview shows what a bar's plain file would: a line break or tab the provider's text holds is cleaned as
    /// the daemon cleans it, so the preview is one line.
    @Test func previewCleansTheTextAsTheDaemonsFilesDo() throws {
        let result = try runWidgetd(["preview", "clock", "--set", "format=%H%n%M%t!"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n", omittingEmptySubsequences: false).first)
        #expect(result.stdout == line + "\n", "\(result.stdout.debugDescription)")
        #expect(line.wholeMatch(of: /[0-9]{2} [0-9]{2} !/) != nil, "\(line.debugDescription)")
    }

    @Test func previewNamesTheValidCasesOfABadEnumValue() throws {
        let result = try runWidgetd(["preview", "quotes", "--set", "category=happy"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "widgetd: error: --set category=happy: 'happy' is not a category for 'category'; "
                    + "cases: motivation (Motivation), focus (Focus), mindfulness (Mindfulness).\n"
                    + "Usage: widgetd preview KIND"))
    }

    @Test func previewNamesTheValidKeysOfAnUnknownParameter() throws {
        let result = try runWidgetd(["preview", "quotes", "--set", "mood=calm"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "widgetd: error: Unknown parameter 'mood' for kind 'quotes'; valid keys: category.\n"))
    }

    @Test func previewRefusesAnUnsupportedFamily() throws {
        let result = try runWidgetd(["preview", "quotes", "--family", "accessoryCircular"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("does not support family 'accessoryCircular'; supported: systemSmall"))
    }

    @Test func kindsListsEveryParameterWithCasesAndDefault() throws {
        let result = try runWidgetd(["kinds"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("quotes — Quote\n"))
        #expect(result.stdout.contains("families: systemSmall, systemMedium"))
        #expect(result.stdout.contains("category (enum), default motivation — Category"))
        #expect(result.stdout.contains("cases: motivation (Motivation), focus (Focus), mindfulness (Mindfulness)"))
    }

    @Test func helpGoesToStdoutAndUsageErrorsToStderr() throws {
        let help = try runWidgetd(["check", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: Check widgets.yaml"))
        let bad = try runWidgetd(["check", "--confg", "x"])
        #expect(bad.status == 64)
        #expect(bad.stdout == "")
        #expect(
            bad.stderr == """
                widgetd: error: Unknown option '--confg'. Did you mean '--config'?
                Usage: widgetd check [--config PATH]
                See 'widgetd help check'.

                """)
    }
}
