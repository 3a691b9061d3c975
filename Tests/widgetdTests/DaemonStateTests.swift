import Foundation
import Glibc
import Testing

@Suite("The daemon tells the CLI where it is: daemon.json, list, status, doctor", .spawnsDaemons)
struct DaemonStateTests {
    static let config = """
        widgets:
          quote:
            kind: quotes
            output: [plain, i3blocks]
          clock:
            kind: clock

        """

    @Test("list with no daemon says so and exits 3 instead of showing old text as current")
    func listWithoutDaemon() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        _ = await daemon.waitFor("the first paint") { daemon.read("quote.plain") != nil }
        daemon.stop()
        let list = try daemon.cli(["list"])
        #expect(list.status == 3)
        #expect(list.stderr.contains("daemon not running"))
        #expect(list.stdout.isEmpty)
        let status = try daemon.cli(["status"])
        #expect(status.status == 3)
        #expect(status.stdout.contains("not running"))
    }

    @Test("After an invalid edit, list says the daemon runs an older config and still lists what it runs")
    func listOlderConfig() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        _ = await daemon.waitFor("the first timeline") { daemon.hasTimeline("quote") }
        try daemon.editConfig("widgets:\n  quote:\n    kind: quotse\n    famly: x\n")
        _ = await waitFor("the refused reload in daemon.json") {
            (try? String(contentsOfFile: daemon.runtime + "/daemon.json", encoding: .utf8))?
                .contains("\"configErrors\" : 0") == false
        }
        let list = try daemon.cli(["list"])
        #expect(list.status == 0)
        #expect(list.stderr.contains("running an older config; \(daemon.configPath) has 2 errors"), "\(list.stderr)")
        #expect(list.stdout.contains("quote") && list.stdout.contains("clock"), "\(list.stdout)")
        let status = try daemon.cli(["status"])
        #expect(status.stdout.contains("2 errors; running the previous config"), "\(status.stdout)")
        // The advice checks the daemon's config, which is not the one a bare `check` reads.
        let advice = "'widgetd check --config \(daemon.configPath)'"
        #expect(status.stdout.contains(advice + " shows the errors"), "\(status.stdout)")
        #expect(list.stderr.contains("(" + advice + " shows them)"), "\(list.stderr)")
        let check = try runWidgetd(["check", "--config", daemon.configPath], environment: daemon.environment)
        #expect(check.status == 1 && check.stderr.contains("unknown kind 'quotse'"), "\(check.stderr)")
    }

    @Test("A widget added in an edit that does not check: reload says the daemon runs the previous config")
    func reloadOfAWidgetTheRunningConfigLacks() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        _ = await daemon.waitFor("the first timeline") { daemon.hasTimeline("quote") }
        try daemon.editConfig(Self.config + "  newone:\n    kind: quotes\n  broken:\n    kind: quotse\n")
        _ = await waitFor("the refused reload in daemon.json") {
            (try? String(contentsOfFile: daemon.runtime + "/daemon.json", encoding: .utf8))?
                .contains("\"configErrors\" : 0") == false
        }
        let reload = try daemon.cli(["reload", "newone", "--wait"])
        #expect(reload.status == 1)
        #expect(
            reload.stderr.contains(
                "no widget of the running config matches 'newone'; \(daemon.configPath) has 1 error, so the daemon "
                    + "runs the previous config"), "\(reload.stderr)")
        let show = try daemon.cli(["show", "newone"])
        #expect(show.status == 1)
        #expect(
            show.stderr.hasSuffix(
                ": the daemon runs the previous config of \(daemon.configPath), which has 1 error now\n"),
            "\(show.stderr)")
    }

    @Test("show, list and click follow the daemon's output directory after settings.output_dir is edited")
    func editedOutputDirectory() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        _ = await daemon.waitFor("the first timeline") { daemon.hasTimeline("quote") }
        let elsewhere = daemon.directory.url.path + "/elsewhere"
        try daemon.editConfig("settings:\n  output_dir: \(elsewhere)\n" + Self.config)
        _ = await daemon.waitFor("the reload") { daemon.log.contains("take effect when the daemon restarts") }
        let show = try daemon.cli(["show", "quote"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout == (daemon.read("quote.plain") ?? "-"))
        let list = try daemon.cli(["list"])
        #expect(list.stdout.contains("quote"))
        let text = try #require(daemon.read("quote.plain")).trimmingCharacters(in: .newlines)
        #expect(list.stdout.contains(text), "\(list.stdout)")
        // Another --config: still the running daemon's widgets and files.
        let other = try daemon.directory.write("other.yaml", "widgets:\n  other:\n    kind: clock\n")
        let shown = try runWidgetd(["show", "quote", "--config", other], environment: daemon.environment)
        #expect(shown.status == 0, "\(shown.stderr)")
    }

    @Test("status prints the daemon, its config, outputs and widgets in one screen")
    func status() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        _ = await daemon.waitFor("the first timeline") { daemon.hasTimeline("quote") && daemon.hasTimeline("clock") }
        let status = try daemon.cli(["status"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("running (pid \(daemon.process.processIdentifier)"))
        #expect(status.stdout.contains("config:   \(daemon.configPath) (OK, 2 widgets)"))
        #expect(status.stdout.contains("outputs:  \(daemon.output)"))
        #expect(status.stdout.contains("NAME") && status.stdout.contains("clock"))
        #expect(status.stdout.split(separator: "\n").count < 25)
        // The table is one terminal wide (the paths above it are as long as they are): it leaves the family and
        // policy to `list` and writes times of day.
        let table = status.stdout.components(separatedBy: "\n\n").dropFirst().joined()
        #expect(table.hasPrefix("NAME "), "\(status.stdout)")
        for line in table.split(separator: "\n") {
            #expect(line.count <= 80, "wider than 80 columns: \(line)")
        }
        let clockRow = try #require(status.stdout.split(separator: "\n").first { $0.hasPrefix("clock ") })
        let timeOfDay = try Regex("  [0-9]{2}:[0-9]{2}:[0-9]{2}  ")
        let anotherDay = try Regex("  [A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}  ")
        #expect(clockRow.contains(timeOfDay) || clockRow.contains(anotherDay), "\(clockRow)")
        #expect(!status.stdout.contains("(not "), "the daemon's own config is not another file")
        // The same file by another spelling is still the daemon's config; another file is named as not it.
        let directory = URL(fileURLWithPath: daemon.configPath).deletingLastPathComponent().path
        let respelled = try runWidgetd(
            ["status", "--config", directory + "/./widgets.yaml"], environment: daemon.environment)
        #expect(!respelled.stdout.contains("(not "), "\(respelled.stdout)")
        let other = try runWidgetd(
            ["status", "--config", directory + "/other.yaml"], environment: daemon.environment)
        #expect(other.stdout.contains("(not \(directory)/other.yaml: one daemon runs per user"), "\(other.stdout)")
    }

    @Test("status stays 80 columns wide with long names, and list and status show a script's controls escaped")
    func statusWithLongNamesAndHostileText() async throws {
        let long = String(repeating: "n", count: 64)
        let daemon = try DaemonUnderTest(
            config: """
                widgets:
                  \(long):
                    kind: exec
                    command: [sh, -c, 'printf "\\342\\200\\256reversed\\n"']
                  secondary_monitor_focus_quote:
                    kind: exec
                    command: [sh, -c, 'printf "\\033]0;pwned\\007\\033[2Jboom" >&2; exit 1']

                """)
        _ = await daemon.waitFor("both answers") {
            daemon.hasTimeline(long)
                && (try? String(
                    contentsOfFile: daemon.runtime + "/status/secondary_monitor_focus_quote.json", encoding: .utf8))?
                    .contains("lastError") == true
        }
        let status = try daemon.cli(["status"])
        let list = try daemon.cli(["list"])
        for output in [status.stdout, list.stdout] {
            #expect(
                !output.contains("\u{1B}") && !output.contains("\u{7}") && !output.contains("\u{202E}"), "\(output)")
        }
        #expect(list.stdout.contains("\\u{202E}reversed"), "\(list.stdout)")
        #expect(list.stdout.contains("\\u{1B}]0;pwned\\u{7}\\u{1B}[2Jboom"), "\(list.stdout)")
        // The daemon's answer to a waiting reload quotes the script's message too.
        let reload = try daemon.cli(["reload", "secondary_monitor_focus_quote", "--wait"])
        #expect(reload.status == 1)
        #expect(!reload.stderr.contains("\u{1B}") && reload.stderr.contains("\\u{1B}]0;pwned"), "\(reload.stderr)")
        let table = status.stdout.components(separatedBy: "\n\n").dropFirst().joined()
        #expect(table.split(separator: "\n").count == 3, "\(status.stdout)")
        for line in table.split(separator: "\n") {
            #expect(line.count <= 80, "wider than 80 columns: \(line)")
        }
    }

    @Test("doctor: a healthy daemon with a reader passes; no daemon, loose modes and unread widgets are named")
    func doctor() async throws {
        // Names no other test's processes carry: doctor looks at every process of the user.
        let tag = String(UUID().uuidString.prefix(8)).lowercased()
        let (quote, clock) = ("quote-\(tag)", "clock-\(tag)")
        let daemon = try DaemonUnderTest(
            config:
                "widgets:\n  \(quote):\n    kind: quotes\n    output: [plain, i3blocks]\n  \(clock):\n    kind: clock\n"
        )
        _ = await daemon.waitFor("the first timeline") { daemon.hasTimeline(quote) && daemon.hasTimeline(clock) }
        // A bar that reads the quote (its file read after written) and a follower naming the clock.
        _ = try String(contentsOfFile: daemon.output + "/\(quote).plain", encoding: .utf8)
        var report = try daemon.cli(["doctor"])
        #expect(report.stdout.contains("ok      daemon running"), "\(report.stdout)")
        #expect(report.stdout.contains("ok      \(daemon.runtime): yours, mode 700"))
        #expect(report.stdout.contains("nothing reads \(clock)"), "\(report.stdout)")
        #expect(!report.stdout.contains("nothing reads \(quote)"), "\(report.stdout)")
        #expect(report.stdout.contains("no systemd user unit"))
        #expect(report.stdout.contains("widgetd is not on the PATH"))
        #expect(report.status == 1)

        let follower = Process()
        follower.executableURL = widgetdBinary
        follower.arguments = ["show", clock, "--follow", "--config", daemon.configPath]
        follower.environment = daemon.environment
        follower.standardOutput = FileHandle.nullDevice
        follower.standardInput = FileHandle.nullDevice
        try follower.run()
        defer {
            follower.terminate()
            follower.waitUntilExit()
        }
        chmod(daemon.runtime, 0o755)
        report = try daemon.cli(["doctor"])
        #expect(report.stdout.contains("every widget's output is read"), "\(report.stdout)")
        #expect(report.stdout.contains("fix: chmod 700 \(daemon.runtime)"), "\(report.stdout)")
        chmod(daemon.runtime, 0o700)

        // The unit, installed in $XDG_DATA_HOME/systemd/user (where scripts/install puts it), then enabled as
        // systemctl does it.
        let home = daemon.environment["HOME"]!
        let units = daemon.environment["XDG_DATA_HOME"]! + "/systemd/user"
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: packageRoot.path + "/contrib/widgetd.service", toPath: units + "/widgetd.service")
        report = try daemon.cli(["doctor"])
        #expect(report.stdout.contains("widgetd.service is installed but not enabled"), "\(report.stdout)")
        let wants = home + "/.config/systemd/user/default.target.wants"
        try FileManager.default.createDirectory(atPath: wants, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: wants + "/widgetd.service", withDestinationPath: units + "/widgetd.service")
        report = try daemon.cli(["doctor"])
        #expect(report.stdout.contains("ok      \(units)/widgetd.service installed and enabled"), "\(report.stdout)")

        daemon.stop()
        report = try daemon.cli(["doctor"])
        #expect(report.stdout.contains("error   daemon not running"))
        #expect(report.stdout.contains("fix: systemctl --user enable --now widgetd"))
    }

    @Test("A state file left by a killed daemon is not believed")
    func staleState() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        _ = await waitFor("daemon.json") { FileManager.default.fileExists(atPath: daemon.runtime + "/daemon.json") }
        kill(daemon.process.processIdentifier, SIGKILL)
        daemon.process.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: daemon.runtime + "/daemon.json"))
        #expect(try daemon.cli(["list"]).status == 3)
    }

    /// The daemon is found through its `flock`, not through what the lock file says: the text is anyone's to change.
    @Test("A lock file whose text was changed still finds the daemon that holds it")
    func lockTextChanged() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        _ = await waitFor("daemon.json") { FileManager.default.fileExists(atPath: daemon.runtime + "/daemon.json") }
        try "1\n".write(toFile: daemon.runtime + "/lock", atomically: false, encoding: .utf8)
        let list = try daemon.cli(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        let second = try runWidgetd(["run", "--config", daemon.configPath], environment: daemon.environment)
        #expect(second.status == 1)
        #expect(second.stderr.contains("already running (pid \(daemon.process.processIdentifier))"), "\(second.stderr)")
    }
}
