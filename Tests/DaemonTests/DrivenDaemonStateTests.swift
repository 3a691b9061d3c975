import Foundation
import Glibc
import TestSupport
import Testing

/// How the CLI finds the running daemon through daemon.json and its lock, and what `list`, `status`, `show` and
/// `reload` say from it, a script's hostile text escaped in them, with the commands run in this process against the
/// driven daemon (`DrivenCommand`). What needs real processes (doctor's look at every process, a daemon killed) stays
/// in widgetdTests' `DaemonStateTests`.
@Suite("The daemon tells the CLI where it is, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenDaemonStateTests {
    static let config = SampleConfigs.quoteAndClock

    static func started(_ driven: DrivenDaemon, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        driven.turns(until: "the first timelines", sourceLocation: sourceLocation) {
            driven.hasTimeline("quote") && driven.hasTimeline("clock")
        }
    }

    /// Takes turns until daemon.json counts the errors of the edit the daemon refused.
    static func refusedEdit(_ driven: DrivenDaemon) -> Bool {
        driven.turns(until: "the refused reload in daemon.json") {
            (try? String(contentsOfFile: driven.runtime + "/daemon.json", encoding: .utf8))?
                .contains("\"configErrors\" : 0") == false
        }
    }

    @Test("list with no daemon says so and exits 3 instead of showing old text as current")
    func listWithoutDaemon() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(driven.turns(until: "the first paint") { driven.read("quote.plain") != nil })
        driven.stop()
        let list = driven.command(["list"])
        #expect(list.status == 3)
        #expect(list.stderr.contains("daemon not running"))
        #expect(list.stdout.isEmpty)
        let status = driven.command(["status"])
        #expect(status.status == 3)
        #expect(status.stdout.contains("not running"))
    }

    @Test("After an invalid edit, list says the daemon runs an older config and still lists what it runs")
    func listOlderConfig() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(Self.started(driven))
        try driven.editConfig("widgets:\n  quote:\n    kind: quotse\n    famly: x\n")
        #expect(Self.refusedEdit(driven))
        let list = driven.command(["list"])
        #expect(list.status == 0)
        #expect(list.stderr.contains("running an older config; \(driven.configPath) has 2 errors"), "\(list.stderr)")
        #expect(list.stdout.contains("quote") && list.stdout.contains("clock"), "\(list.stdout)")
        let status = driven.command(["status"])
        #expect(status.stdout.contains("2 errors; running the previous config"), "\(status.stdout)")
        // The advice checks the daemon's config, which is not the one a bare `check` reads.
        let advice = "'widgetd check --config \(driven.configPath)'"
        #expect(status.stdout.contains(advice + " shows the errors"), "\(status.stdout)")
        #expect(list.stderr.contains("(" + advice + " shows them)"), "\(list.stderr)")
        let check = driven.command(["check"])
        #expect(check.status == 1 && check.stderr.contains("unknown kind 'quotse'"), "\(check.stderr)")
    }

    @Test("A widget added in an edit that does not check: reload says the daemon runs the previous config")
    func reloadOfAWidgetTheRunningConfigLacks() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(Self.started(driven))
        try driven.editConfig(Self.config + "  newone:\n    kind: quotes\n  broken:\n    kind: quotse\n")
        #expect(Self.refusedEdit(driven))
        let reload = driven.commandTakingTurns(["reload", "newone", "--wait"])
        #expect(reload.status == 1)
        #expect(
            reload.stderr.contains(
                "no widget of the running config matches 'newone'; \(driven.configPath) has 1 error, so the daemon "
                    + "runs the previous config"), "\(reload.stderr)")
        let show = driven.command(["show", "newone"])
        #expect(show.status == 1)
        #expect(
            show.stderr.hasSuffix(
                ": the daemon runs the previous config of \(driven.configPath), which has 1 error now\n"),
            "\(show.stderr)")
    }

    @Test("show and list follow the daemon's output directory after settings.output_dir is edited")
    func editedOutputDirectory() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(Self.started(driven))
        let elsewhere = driven.directory.url.path + "/elsewhere"
        try driven.editConfig("settings:\n  output_dir: \(elsewhere)\n" + Self.config)
        #expect(driven.turns(until: "the reload") { driven.log.contains("take effect when the daemon restarts") })
        let show = driven.command(["show", "quote"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout == (driven.read("quote.plain") ?? "-"))
        let list = driven.command(["list"])
        #expect(list.stdout.contains("quote"))
        let text = try #require(driven.read("quote.plain")).trimmingCharacters(in: .newlines)
        #expect(list.stdout.contains(text), "\(list.stdout)")
        // Another --config: still the running daemon's widgets and files.
        let other = try driven.directory.write("other.yaml", "widgets:\n  other:\n    kind: clock\n")
        let shown = driven.command(["show", "quote"], config: other)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout == show.stdout)
    }

    @Test("status stays 80 columns wide with long names, and list and status show a script's controls escaped")
    func statusWithLongNamesAndHostileText() throws {
        let long = String(repeating: "n", count: 64)
        let driven = try DrivenDaemon(
            config: """
                widgets:
                  \(long):
                    kind: exec
                    command: [sh, -c, 'printf "\\342\\200\\256reversed\\n"']
                  secondary_monitor_focus_quote:
                    kind: exec
                    command: [sh, -c, 'printf "\\033]0;pwned\\007\\033[2Jboom" >&2; exit 1']

                """)
        #expect(
            driven.turns(until: "both answers") {
                driven.hasTimeline(long)
                    && (try? String(
                        contentsOfFile: driven.runtime + "/status/secondary_monitor_focus_quote.json",
                        encoding: .utf8))?
                        .contains("lastError") == true
            })
        let status = driven.command(["status"])
        let list = driven.command(["list"])
        for output in [status.stdout, list.stdout] {
            #expect(
                !output.contains("\u{1B}") && !output.contains("\u{7}") && !output.contains("\u{202E}"), "\(output)")
        }
        #expect(list.stdout.contains("\\u{202E}reversed"), "\(list.stdout)")
        #expect(list.stdout.contains("\\u{1B}]0;pwned\\u{7}\\u{1B}[2Jboom"), "\(list.stdout)")
        // The daemon's answer to a waiting reload quotes the script's message too.
        let reload = driven.commandTakingTurns(["reload", "secondary_monitor_focus_quote", "--wait"])
        #expect(reload.status == 1)
        #expect(!reload.stderr.contains("\u{1B}") && reload.stderr.contains("\\u{1B}]0;pwned"), "\(reload.stderr)")
        let table = status.stdout.components(separatedBy: "\n\n").dropFirst().joined()
        #expect(table.split(separator: "\n").count == 3, "\(status.stdout)")
        for line in table.split(separator: "\n") {
            #expect(line.count <= 80, "wider than 80 columns: \(line)")
        }
    }

    @Test("status prints the daemon, its config, outputs and widgets in one screen")
    func status() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(Self.started(driven))
        let status = driven.command(["status"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("running (pid \(getpid())"), "\(status.stdout)")
        #expect(status.stdout.contains("config:   \(driven.configPath) (OK, 2 widgets)"), "\(status.stdout)")
        #expect(status.stdout.contains("outputs:  \(driven.output)"))
        #expect(status.stdout.contains("NAME") && status.stdout.contains("clock"))
        #expect(status.stdout.split(separator: "\n").count < 25)
        // The table is one terminal wide (the paths above it are as long as they are): it leaves the family and
        // policy to `list` and writes short times.
        let table = status.stdout.components(separatedBy: "\n\n").dropFirst().joined()
        #expect(table.hasPrefix("NAME "), "\(status.stdout)")
        for line in table.split(separator: "\n") {
            #expect(line.count <= 80, "wider than 80 columns: \(line)")
        }
        // The driven clock stands years ahead of the wall clock: the clock's next reload is in another year, written
        // as its day and year (the short forms of every distance: CLITests' ShortTimeTests).
        let clockRow = try #require(status.stdout.split(separator: "\n").first { $0.hasPrefix("clock ") })
        let anotherYear = try Regex("  [A-Z][a-z]{2} [ 0-9][0-9]  2033  ")
        #expect(clockRow.contains(anotherYear), "\(clockRow)")
        #expect(!status.stdout.contains("(not "), "the daemon's own config is not another file")
        // The same file by another spelling is still the daemon's config; another file is named as not it.
        let directory = URL(fileURLWithPath: driven.configPath).deletingLastPathComponent().path
        let respelled = driven.command(["status"], config: directory + "/./widgets.yaml")
        #expect(!respelled.stdout.contains("(not "), "\(respelled.stdout)")
        let other = driven.command(["status"], config: directory + "/other.yaml")
        #expect(other.stdout.contains("(not \(directory)/other.yaml: one daemon runs per user"), "\(other.stdout)")
    }

    /// What a daemon killed with SIGKILL leaves: daemon.json naming it, and a lock file nobody holds.
    @Test("A state file whose daemon holds no lock is not believed")
    func staleState() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(Self.started(driven))
        let state = try String(contentsOfFile: driven.runtime + "/daemon.json", encoding: .utf8)
        #expect(driven.command(["list"]).status == 0)
        driven.stop()
        try state.write(toFile: driven.runtime + "/daemon.json", atomically: true, encoding: .utf8)
        _ = try driven.directory.write("run/widgetd/lock", "\(getpid())\n")
        let list = driven.command(["list"])
        #expect(list.status == 3)
        #expect(list.stderr.contains("daemon not running"), "\(list.stderr)")
    }

    /// The daemon is found through its `flock`, not through what the lock file says: the text is anyone's to change.
    @Test("A lock file whose text was changed still finds the daemon that holds it, and a second is refused")
    func lockTextChanged() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(Self.started(driven))
        try "1\n".write(toFile: driven.runtime + "/lock", atomically: false, encoding: .utf8)
        let list = driven.command(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect {
            _ = try DrivenDaemon(config: Self.config, reusing: driven)
        } throws: { error in
            "\(error)".contains("already running (pid \(getpid()))")
        }
    }
}
