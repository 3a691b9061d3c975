import Foundation
import Glibc
import TestSupport
import Testing

/// What needs the daemon as a process of its own: doctor looking at every process, a script's hostile text, a daemon
/// killed. What list, status, show and reload say from daemon.json is DaemonTests' `DrivenDaemonStateTests`.
@Suite("The daemon tells the CLI where it is: daemon.json, list, status, doctor", .spawnsDaemons)
struct DaemonStateTests {
    static let config = SampleConfigs.quoteAndClock

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

}
