import Foundation
import TestSupport
import Testing

/// Plugins end to end (docs/PLUGINS.md): real plugin processes (the test plugin in TestSupport's `FakePlugin.swift` and
/// the contrib ones), the built binary, temporary directories: what needs no daemon, and the binary's daemon waiting for
/// a plugin slow to say hello (`PluginStartFailureTests` has it load one that failed at the start). A click's intent,
/// the pomodoro timer, an intent's parameters, garbage lines, pipelined requests, a pushed reload, a plugin's log
/// lines limited, a deaf or mute plugin, one installed after the start are `DrivenPluginTests`', a crash, a hang and
/// the restarts after them `DrivenPluginRestartTests`', a flood `DrivenPluginFloodTests`' (the daemon in the test's
/// process).
@Suite("plugins, end to end", .spawnsDaemons)
struct PluginEndToEndTests {
    /// The plain text a widget shows, without its newline.
    private static func shown(_ daemon: DaemonUnderTest, _ name: String) -> String? {
        daemon.read(name + ".plain").map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
    }

    private static func hellos(in state: String) -> Int {
        lines(in: state).filter { $0 == "hello" }.count
    }

    private static func lines(in state: String) -> [Substring] {
        ((try? String(contentsOfFile: state + "/requests", encoding: .utf8)) ?? "").split(separator: "\n")
    }

    @Test func checkReportsPluginSchemaErrorsAtTheirPositionsWithoutADaemon() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = try writeFakePlugin(in: directory)
        let path = try directory.write(
            "widgets.yaml",
            """
            plugins:
              fake: [/usr/bin/python3, \(script), count, fake, \(directory.url.path)]
              broken: not-a-list
            widgets:
              a:
                kind: fake
                family: systemLarge
                intent:
                  size: huge
                  count: 9
                  colour: red
              b:
                kind: fake
                intent: {flag: perhaps}

            """)
        let environment = ["XDG_CACHE_HOME": directory.url.path + "/cache", "XDG_DATA_HOME": directory.url.path]
        let result = try runWidgetd(["check", "--config", path], environment: environment)
        #expect(result.status == 1)
        let headlines = result.stderr.split(separator: "\n").filter { $0.hasPrefix(path) }.map {
            String($0.dropFirst(path.count + 1))
        }
        #expect(
            headlines == [
                "3:11: error: plugin 'broken' must be a list: [program, arguments…] (no shell unless you write [sh, -c, …])",
                "7:13: error: kind 'fake' does not support family 'systemLarge'; supported: accessoryInline, systemSmall",
                "9:13: error: 'huge' is not a size for 'size'; cases: small (small), big (big)",
                "10:14: error: 9 is out of range for 'count'; expected 1 to 5",
                "11:7: error: unknown parameter 'colour' for kind 'fake'; parameters: size, count, flag",
                "14:20: error: 'perhaps' is not a bool for 'flag'; write true or false",
            ], "\(result.stderr)")
        // The declaration is cached: a second check and `kinds` do not run the plugin again; a changed plugin file
        // (its size and mtime) does.
        #expect(Self.hellos(in: directory.url.path) == 1)
        let cached = try #require(
            FileManager.default.contents(atPath: directory.url.path + "/cache/widgetd/plugins/fake.json"))
        #expect(String(decoding: cached, as: UTF8.self).contains("\"hello\""))
        let withConfig = environment.merging(["WIDGETD_CONFIG": path]) { $1 }
        #expect(try runWidgetd(["check", "--config", path], environment: environment).status == 1)
        let kinds = try runWidgetd(["kinds"], environment: withConfig)
        #expect(kinds.stdout.contains("fake — Fake"))
        #expect(kinds.stdout.contains("plugin: fake 0.9"))
        #expect(Self.hellos(in: directory.url.path) == 1)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: script))
        handle.seekToEndOfFile()
        handle.write(Data("# changed\n".utf8))
        handle.closeFile()
        #expect(try runWidgetd(["kinds"], environment: withConfig).stdout.contains("fake — Fake"))
        #expect(Self.hellos(in: directory.url.path) == 2)
    }

    @Test func pluginsAreFoundInTheDataDirectoryAndListedWithWhatIsWrongWithThem() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let plugins = directory.url.path + "/data/widgetd/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        let loadavg = packageRoot.appendingPathComponent("contrib/plugins/loadavg").path
        try FileManager.default.copyItem(atPath: loadavg, toPath: plugins + "/loadavg")
        let scripts = [
            "garbled": "#!/bin/sh\necho hello there\n",
            "clash": "#!/bin/sh\necho '{\"type\":\"hello\",\"protocol\":1,\"kind\":{\"name\":\"quotes\"}}'\n",
            "future": "#!/bin/sh\necho '{\"type\":\"hello\",\"protocol\":2,\"kind\":{\"name\":\"later\"}}'\n",
        ]
        for (name, text) in scripts {
            try writeFile(text, to: plugins + "/" + name)
            chmod(plugins + "/" + name, 0o755)
        }
        try "not executable".write(toFile: plugins + "/README", atomically: true, encoding: .utf8)
        // A plugin copied without its mode (`cp` from a package's examples): named, with the fix; the README is not.
        try writeFile("#!/bin/sh\nexec true\n", to: plugins + "/copied")
        try "0.50 0.40 0.30 1/100 1\n".write(
            toFile: directory.url.path + "/loadavg", atomically: true, encoding: .utf8)
        let environment = [
            "XDG_DATA_HOME": directory.url.path + "/data", "XDG_CACHE_HOME": directory.url.path + "/cache",
            "XDG_RUNTIME_DIR": directory.url.path, "WIDGETD_CONFIG": directory.url.path + "/none.yaml",
            "LOADAVG_FILE": directory.url.path + "/loadavg",
        ]
        let list = try runWidgetd(["plugins"], environment: environment)
        #expect(list.status == 1, "broken plugins are a failure a script can tell")
        let lines = list.stdout.split(separator: "\n")
        #expect(
            lines.last == "skipped \(plugins)/copied: not executable (chmod +x \(plugins)/copied to make it a plugin)")
        #expect(!list.stdout.contains("README"))
        let rows = lines.dropLast().map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.map { $0.first.map(String.init) ?? "" } == ["NAME", "clash", "future", "garbled", "loadavg"])
        #expect(list.stdout.contains("declares kind 'quotes', which another kind already has"), "\(list.stdout)")
        #expect(list.stdout.contains("speaks protocol 2; this widgetd speaks 1"))
        #expect(list.stdout.contains("its first line is not JSON: 'hello there'"))
        #expect(rows.last.map { $0.prefix(4).joined(separator: " ") } == "loadavg loadavg 1.0 ready", "\(list.stdout)")
        let kinds = try runWidgetd(["kinds"], environment: environment)
        #expect(kinds.stdout.contains("loadavg — Load average"))
        #expect(!kinds.stdout.contains("later"))
        let preview = try runWidgetd(["preview", "loadavg", "--set", "above=0"], environment: environment)
        #expect(preview.stdout == "load 0.50\n", "\(preview.stderr)")
    }

    /// `kinds --config` and `preview --config` see the plugins a config's `plugins:` names, as `plugins --config`
    /// does; without it they read the default config, which names none here.
    @Test func kindsAndPreviewSeeAConfigsPlugins() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let loadavg = packageRoot.appendingPathComponent("contrib/plugins/loadavg").path
        let config = try directory.write(
            "widgets.yaml", "plugins:\n  loadavg: [\(loadavg)]\nwidgets:\n  q:\n    kind: quotes\n")
        try "0.50 0.40 0.30 1/100 1\n".write(toFile: directory.url.path + "/loadavg", atomically: true, encoding: .utf8)
        let environment = [
            "XDG_DATA_HOME": directory.url.path + "/data", "XDG_RUNTIME_DIR": directory.url.path,
            "LOADAVG_FILE": directory.url.path + "/loadavg",
        ]
        // The kind's own line: the built-in load kind's summary names /proc/loadavg.
        #expect(!(try runWidgetd(["kinds"], environment: environment)).stdout.contains("loadavg — "))
        #expect(try runWidgetd(["kinds", "--config", config], environment: environment).stdout.contains("loadavg — "))
        let preview = try runWidgetd(
            ["preview", "loadavg", "--set", "above=0", "--config", config], environment: environment)
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(preview.stdout == "load 0.50\n")
    }

    /// A relative date (the countdown plugin's "in N d") is written out as it reads now, as the daemon's files and
    /// `show` write it: preview printed the label alone.
    @Test func previewWritesOutARelativeDate() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let countdown = packageRoot.appendingPathComponent("contrib/plugins/countdown").path
        let config = try directory.write(
            "widgets.yaml",
            "plugins:\n  countdown: [/usr/bin/python3, \(countdown)]\nwidgets:\n  q:\n    kind: quotes\n")
        let environment = ["XDG_DATA_HOME": directory.url.path + "/data", "XDG_RUNTIME_DIR": directory.url.path]
        let preview = try runWidgetd(
            ["preview", "countdown", "--set", "label=NY", "--set", "to=2099-01-01T00:00:00Z", "--config", config],
            environment: environment)
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(preview.stdout.contains(try Regex("^NY in [0-9]+ d\n$")), "\(preview.stdout)")
    }

    /// A scratch home for the CLI with plugins in its data directory (`$XDG_DATA_HOME/widgetd/plugins`), its cache
    /// and runtime directories of its own, and `WIDGETD_CONFIG` at `config` (by default a file that is not there).
    struct PluginHome {
        let directory: TemporaryDirectory
        var path: String { directory.url.path }

        init() throws {
            directory = try TemporaryDirectory()
            try FileManager.default.createDirectory(
                atPath: path + "/data/widgetd/plugins", withIntermediateDirectories: true)
        }

        /// Writes `script` as the executable plugin `name`.
        func install(_ name: String, _ script: String) throws {
            let file = path + "/data/widgetd/plugins/" + name
            try writeFile(script, to: file)
            chmod(file, 0o755)
        }

        func environment(config: String? = nil) -> [String: String] {
            [
                "XDG_DATA_HOME": path + "/data", "XDG_CACHE_HOME": path + "/cache", "XDG_RUNTIME_DIR": path,
                "WIDGETD_CONFIG": config ?? path + "/none.yaml",
            ]
        }
    }

    /// A plugin that never says hello costs a command its 3 s wait once, not every bar click: the silence is remembered
    /// until the plugin's files change, `widgetd plugins` tries it again, commands that need no kinds never run it,
    /// and a widget of its kind is told why the kind is missing.
    @Test(.aheadInLine) func aSilentPluginIsRememberedAndNamedAsTheReason() async throws {
        let home = try PluginHome()
        defer { home.directory.remove() }
        let runs = home.path + "/runs"
        try home.install("silent", "#!/bin/sh\necho run >> \(runs)\nexec sleep 30\n")
        let environment = home.environment(
            config: try home.directory.write("widgets.yaml", "widgets:\n  s:\n    kind: silent\n"))
        func timesRun() -> Int {
            ((try? String(contentsOfFile: runs, encoding: .utf8)) ?? "").split(separator: "\n").count
        }
        // Two waits of 3 s for a plugin that sleeps: the turn goes to the next test.
        await DaemonGate.giveBackTurn()
        _ = try await awaitingPrograms { try runWidgetd(["kinds"], environment: environment) }
        #expect(timesRun() == 1)
        let check = try runWidgetd(["check"], environment: environment)
        #expect(check.status == 1)
        #expect(
            check.stderr.contains(
                "kind 'silent' is a plugin that failed to load: said no hello within 3 s; 'widgetd plugins' says more"),
            "\(check.stderr)")
        _ = try runWidgetd(["todos", "list"], environment: environment)
        _ = try runWidgetd(["cron", "0 9 * * *", "--count", "1"], environment: environment)
        #expect(timesRun() == 1, "remembered, and not run by commands that need no kinds")
        let listed = try await awaitingPrograms { try runWidgetd(["plugins"], environment: environment) }
        #expect(listed.stdout.contains("said no hello within 3 s"), "\(listed.stdout)")
        #expect(timesRun() == 2, "`widgetd plugins` tries it again")
    }

    /// Plugins whose declarations are read are run all at once (`PluginCatalog.declarations`): two that each say hello
    /// only once the other has started both load, where one after the other the first waited out its deadline.
    @Test func pluginsAreProbedAtOnce() throws {
        let home = try PluginHome()
        defer { home.directory.remove() }
        for (name, other) in [("alpha", "beta"), ("beta", "alpha")] {
            try home.install(
                name,
                """
                #!/bin/sh
                touch \(home.path)/\(name).started
                while [ ! -e \(home.path)/\(other).started ]; do sleep 0.05; done
                echo '{"type":"hello","protocol":1,"kind":{"name":"\(name)"}}'
                exec sleep 30

                """)
        }
        let kinds = try runWidgetd(["kinds"], environment: home.environment())
        #expect(kinds.stdout.contains("alpha") && kinds.stdout.contains("beta"), "\(kinds.stdout)\(kinds.stderr)")
    }

    /// What a plugin run for its hello leaves in its process group (a child that ignores SIGTERM) is killed with it:
    /// every `check`, `kinds` and `plugins` left one behind.
    @Test(.aheadInLine) func aProbeLeavesNothingBehind() async throws {
        let home = try PluginHome()
        defer { home.directory.remove() }
        let marker = "105.\(getpid())"
        try home.install("clingy", "#!/bin/sh\n(trap '' TERM; exec sleep \(marker)) &\nexec sleep 30\n")
        let environment = home.environment()
        await DaemonGate.giveBackTurn()  // the probe's 3 s are a sleeping plugin's
        _ = try await awaitingPrograms { try runWidgetd(["kinds"], environment: environment) }
        func lingering() -> Bool {
            let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return pids.contains { pid in
                guard Int32(pid) != nil,
                    let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
                else { return false }
                return String(decoding: command, as: UTF8.self).contains(marker)
            }
        }
        #expect(await waitFor("the probe's group gone") { !lingering() })
    }

    /// A plugin's hello is its own text: its version, names and summaries reach `plugins` and `kinds` escaped.
    @Test func aPluginsHelloReachesTheTerminalEscaped() throws {
        let home = try PluginHome()
        defer { home.directory.remove() }
        let hello =
            #"{"type":"hello","protocol":1,"version":"1\u001b[31mX","kind":{"name":"esck","display_name":"D\u001b[5m","#
            + #""summary":"S\u001b]0;t\u0007\u202eZ"}}"#
        try home.install("esck", "#!/bin/sh\necho '\(hello)'\nexec sleep 30\n")
        let environment = home.environment()
        for command in ["plugins", "kinds"] {
            let output = try runWidgetd([command], environment: environment).stdout
            #expect(output.contains("esck"), "\(command): \(output)")
            #expect(
                !output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{202E}" },
                "\(command): \(output)")
        }
    }

    /// The daemon waits longer than a command for a plugin's hello (`PluginCatalog.daemonHelloDeadline`): one slow to
    /// start at login has its widgets shown, and the answer it gave is remembered for the commands after.
    @Test(.aheadInLine) func theDaemonWaitsForAPluginSlowToSayHello() async throws {
        let slow = """
            #!/bin/sh
            sleep 3.3
            echo '{"type":"hello","protocol":1,"kind":{"name":"slowhello"}}'
            while IFS= read -r request; do
              id=$(printf '%s\\n' "$request" | sed -n 's/.*"id":\\([0-9]*\\).*/\\1/p')
              echo "{\\"id\\":$id,\\"entries\\":[{\\"text\\":\\"finally\\"}],\\"policy\\":\\"never\\"}"
            done

            """
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let plugin = try directory.write("slowhello", slow)
        chmod(plugin, 0o755)
        let daemon = try DaemonUnderTest(
            config: "plugins:\n  slowhello: [\(plugin)]\nwidgets:\n  q:\n    kind: quotes\n  s:\n    kind: slowhello\n"
                + "    output: [plain]\n",
            reusing: directory)
        defer { daemon.stop() }
        await DaemonGate.giveBackTurn()  // the plugin sleeps through its 3.3 s twice: the cores are free meanwhile
        #expect(
            await daemon.waitFor("the slow plugin's answer", timeout: .seconds(20)) {
                Self.shown(daemon, "s") == "finally"
            })
    }

    @Test func thePluginsCommandHasHelpAndRefusesStrayArguments() throws {
        let help = try runWidgetd(["plugins", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: widgetd plugins [--config PATH]"))
        #expect(help.stdout.contains("docs/PLUGINS.md"))
        #expect(try runWidgetd(["help"]).stdout.contains("List the plugins and their state."))
        let stray = try runWidgetd(["plugins", "extra"])
        #expect(stray.status == 64)
        #expect(stray.stderr.contains("Usage: widgetd plugins [--config PATH]"), "\(stray.stderr)")
    }

    @Test func theContribPluginsPassTheirOwnTests() async throws {
        try requirePythonModule("jsonschema", package: "python3-jsonschema")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "unittest", "contrib/plugins/test_plugins.py"]
        process.currentDirectoryURL = packageRoot
        // The plugins start with `#!/usr/bin/env python3`: with the system's PATH they run on the same interpreter
        // as their tests, not through a version manager's shim on the developer's PATH (pyenv's costs 0.1 s of CPU
        // per start, ten times the interpreter's own).
        process.environment = ProcessInfo.processInfo.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outPath = try directory.write("out", "")
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let end = ProcessEnd(of: process)
        try process.run(thenClosing: errors)
        await end.wait()
        #expect(process.terminationStatus == 0, "\((try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "")")
    }
}
