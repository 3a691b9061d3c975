import Foundation
import TestSupport
import Testing

/// The man pages and completions are made from the tables --help, the parser and the config checker use; these tests
/// hold them to --help and `widgetd kinds` as the built binary prints them.
@Suite("Man pages and completions match --help and kinds")
struct GeneratedDocsTests {
    /// Every subcommand `widgetd --help` lists.
    static func subcommands() throws -> [String] {
        let help = try runWidgetd(["--help"]).stdout
        let start = try #require(help.range(of: "SUBCOMMANDS:\n"))
        return help[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("  ") && !$0.hasPrefix("  See") }
            .map { String($0.split(separator: " ")[0]) }
    }

    /// Every option `widgetd help COMMAND` lists for `command`.
    static func options(of command: String) throws -> [String] {
        let help = try runWidgetd(["help", command]).stdout
        guard let start = help.range(of: "OPTIONS:\n") else { return [] }
        return help[start.upperBound...].split(separator: "\n").flatMap { line -> [String] in
            guard line.hasPrefix("  -") else { return [] }
            let syntax = line.dropFirst(2).prefix(24)
            return syntax.split(whereSeparator: { $0 == " " || $0 == "," }).filter { $0.hasPrefix("-") }.map(
                String.init)
        }
    }

    /// The kinds and families `widgetd kinds` prints.
    static func kindsAndFamilies() throws -> (kinds: [String], families: Set<String>) {
        let text = try runWidgetd(["kinds"]).stdout
        let kinds = text.split(separator: "\n").filter { $0.contains(" — ") && !$0.hasPrefix(" ") }.map {
            String($0.split(separator: " ")[0])
        }
        let families = text.split(separator: "\n").filter { $0.hasPrefix("  families: ") }.flatMap {
            $0.dropFirst(12).split(separator: ", ").map(String.init)
        }
        return (kinds, Set(families))
    }

    static func generated(_ arguments: [String]) throws -> String {
        let result = try runWidgetd(["generate"] + arguments)
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test("Every subcommand, option, kind and family appears in widgetd(1), widgets.yaml(5) and each completion")
    func everythingIsCovered() throws {
        let commands = try Self.subcommands()
        #expect(commands.count >= 15 && commands.contains("status") && commands.contains("doctor"))
        #expect(!commands.contains("generate"), "generate is hidden")
        let (kinds, families) = try Self.kindsAndFamilies()
        #expect(kinds.count >= 5 && families.count == 7)
        let manual = try Self.generated(["man", "widgetd.1"]).replacingOccurrences(of: "\\-", with: "-")
        let config = try Self.generated(["man", "widgets.yaml.5"])
        let completions = try ["bash", "zsh", "fish"].map { try Self.generated(["completion", $0]) }
        for command in commands {
            #expect(manual.contains(".SS \"\(command)\""), "widgetd(1) lacks \(command)")
            for completion in completions { #expect(completion.contains(command), "a completion lacks \(command)") }
            for option in try Self.options(of: command) {
                #expect(manual.contains(option), "widgetd(1) lacks \(command) \(option)")
                let long = option.hasPrefix("--") ? String(option.dropFirst(2)) : String(option.dropFirst())
                #expect(completions[0].contains(option), "bash lacks \(command) \(option)")
                #expect(completions[1].contains(option), "zsh lacks \(command) \(option)")
                #expect(
                    completions[2].contains(" \(long) ") || completions[2].contains(" \(long)\n"),
                    "fish lacks \(option)")
            }
        }
        for kind in kinds {
            #expect(config.contains(".SS \"\(kind)\""), "widgets.yaml(5) lacks kind \(kind)")
            for completion in completions { #expect(completion.contains(kind), "a completion lacks kind \(kind)") }
        }
        for family in families {
            #expect(config.contains(family), "widgets.yaml(5) lacks \(family)")
            for completion in completions { #expect(completion.contains(family), "a completion lacks \(family)") }
        }
        for format in ["plain", "i3blocks", "i3bar", "waybar", "polybar", "tmux"] {
            #expect(config.contains(".B \(format)"))
            #expect(completions.allSatisfy { $0.contains(format) })
        }
        #expect(!config.contains("UNDOCUMENTED"), "a config key has no description in ConfigManPage")
        for key in ["output_dir", "store", "bars", "plugins", "kind", "family", "intent", "schedule", "on_click"] {
            #expect(config.contains(".B \(key)"))
        }
        // A kind's own widget keys (exec's command, interval …), as `widgetd kinds` lists them.
        var inWidgetKeys = false
        var kindKeys: [String] = []
        for line in try runWidgetd(["kinds"]).stdout.split(separator: "\n") {
            if line.hasPrefix("  ") && !line.hasPrefix("    ") { inWidgetKeys = line == "  widget keys:" }
            if inWidgetKeys, line.hasPrefix("    "), let name = line.split(separator: " ").first {
                kindKeys.append(String(name))
            }
        }
        #expect(kindKeys.contains("command"))
        for key in kindKeys { #expect(config.contains(key + " ("), "widgets.yaml(5) lacks the widget key \(key)") }
    }

    @Test("zsh names each option's value as help does: --config PATH, --set KEY=VALUE")
    func zshNamesValuesAsHelpDoes() throws {
        let zsh = try Self.generated(["completion", "zsh"])
        let specs = zsh.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let config = try #require(specs.first { $0.hasPrefix("'*--config[") })
        #expect(config.contains("]:PATH:_files"), "\(config)")
        let set = try #require(specs.first { $0.hasPrefix("'*--set[") })
        #expect(set.contains("]:KEY=VALUE:"), "\(set)")
        #expect(!specs.contains { $0.contains("]:CONFIG:") || $0.contains("]:SET:") })
    }

    @Test("man renders each page without a warning", arguments: ["widgetd.1", "widgets.yaml.5"])
    func manRendersCleanly(page: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(page, try Self.generated(["man", page]))
        let man = try requireExecutable("man", package: "man-db")
        let rendered = try runProgram(man, ["--warnings", "-l", path], environment: ["MANWIDTH": "80"])
        #expect(rendered.status == 0)
        #expect(rendered.stderr.isEmpty, "man --warnings: \(rendered.stderr)")
        #expect(rendered.stdout.contains(page == "widgetd.1" ? "WIDGETD(1)" : "WIDGETS.YAML(5)"))
    }

    @Test("bash completes subcommands, formats and the widget names of the running daemon's config")
    func bashCompletes() async throws {
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  quote:\n    kind: quotes\n  morning-clock:\n    kind: clock\n")
        // The completion reads the running daemon's config: its state file and the copy of what it runs, both there
        // by the first timelines.
        #expect(
            await daemon.waitFor("the daemon's state and running config", timeout: .seconds(30)) {
                ["daemon.json", "running-config.yaml"].allSatisfy {
                    FileManager.default.fileExists(atPath: daemon.runtime + "/" + $0)
                } && daemon.hasTimeline("quote") && daemon.hasTimeline("morning-clock")
            })
        let script = try daemon.directory.write("completion.bash", try Self.generated(["completion", "bash"]))
        func complete(_ words: [String]) throws -> [String] {
            let line = words.map { "'\($0)'" }.joined(separator: " ")
            let program = """
                source \(script)
                COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1)
                _widgetd
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let result = try runProgram("/bin/bash", ["-c", program], environment: daemon.environment)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete([widgetdBinary.path, "sta"]) == ["status"])
        // Another config on the line: the running daemon's widgets still.
        #expect(try complete([widgetdBinary.path, "show", ""]).sorted() == ["morning-clock", "quote"])
        #expect(try complete([widgetdBinary.path, "reload", "mo"]) == ["morning-clock"])
        #expect(try complete([widgetdBinary.path, "show", "quote", "--format", "way"]) == ["waybar"])
        #expect(try complete([widgetdBinary.path, "preview", "--family", "systemM"]) == ["systemMedium"])
        #expect(try complete([widgetdBinary.path, "show", "quote", ""]).isEmpty)
        // A literal word with a digit in it: `import i3blocks`.
        #expect(try complete([widgetdBinary.path, "import", ""]) == ["i3blocks", "i3status"])
        daemon.stop()
        // No daemon: the names of the config on the line.
        let other = try daemon.directory.write("other.yaml", "widgets:\n  solo:\n    kind: clock\n")
        #expect(try complete([widgetdBinary.path, "click", "--config", other, ""]) == ["solo"])
    }

    @Test("fish completes subcommands, formats, families and the config's widget names")
    func fishCompletes() throws {
        let fish = try requireExecutable("fish", package: "fish")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try directory.write(
            "widgets.yaml", "widgets:\n  quote:\n    kind: quotes\n  morning:\n    kind: clock\n")
        let script = try directory.write("completion.fish", try Self.generated(["completion", "fish"]))
        func complete(_ line: String) throws -> [String] {
            let result = try runProgram(
                fish, ["--no-config", "-c", "source \(script); complete -C '\(line)'"],
                environment: [
                    "PATH": widgetdBinary.deletingLastPathComponent().path + ":/usr/bin:/bin",
                    "XDG_RUNTIME_DIR": directory.url.path,
                ])
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        #expect(try complete("widgetd sta") == ["status"])
        #expect(try complete("widgetd show --config \(config) ").sorted() == ["morning", "quote"])
        #expect(try complete("widgetd show --format way") == ["waybar"])
        #expect(try complete("widgetd preview --family systemL") == ["systemLarge"])
        #expect(try complete("widgetd preview cl") == ["clock"])
    }

    @Test("zsh and fish read their scripts without a syntax error", arguments: ["zsh", "fish"])
    func syntaxChecks(shell: String) throws {
        let program = try requireExecutable(shell, package: shell)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = try directory.write("completion", try Self.generated(["completion", shell]))
        let check = try runProgram(program, ["-n", script])
        #expect(check.status == 0, "\(shell) -n: \(check.stderr)")
    }
}
