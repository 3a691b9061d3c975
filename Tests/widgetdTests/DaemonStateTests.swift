import Foundation
import Glibc
import TestSupport
import Testing

/// What needs the daemon as a process of its own: doctor looking at every process, a daemon killed. What list, status,
/// show and reload say from daemon.json, a script's hostile text among it, is DaemonTests' `DrivenDaemonStateTests`.
@Suite("The daemon tells the CLI where it is: daemon.json, list, status, doctor", .spawnsDaemons)
struct DaemonStateTests {
    static let config = SampleConfigs.quoteAndClock

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
        var report = try await daemon.cli(["doctor"])
        #expect(report.stdout.contains("ok      daemon running"), "\(report.stdout)")
        #expect(report.stdout.contains("ok      \(daemon.runtime): yours, mode 700"))
        #expect(report.stdout.contains("nothing reads \(clock)"), "\(report.stdout)")
        #expect(!report.stdout.contains("nothing reads \(quote)"), "\(report.stdout)")
        #expect(report.stdout.contains("no systemd user unit"))
        #expect(report.stdout.contains("widgetd is not on the PATH"))
        #expect(report.status == 1)

        // Doctor finds the follower among the user's processes: it must have started and be showing (until its exec,
        // the process it is has the test's command line).
        let follower = try Follower(daemon, showing: clock)
        #expect(await waitFor("the follower's first line") { !follower.lines.isEmpty })
        chmod(daemon.runtime, 0o755)
        report = try await daemon.cli(["doctor"])
        #expect(report.stdout.contains("every widget's output is read"), "\(report.stdout)")
        // Freeing it ends it: it must be there until doctor has looked.
        withExtendedLifetime(follower) {}
        #expect(report.stdout.contains("fix: chmod 700 \(daemon.runtime)"), "\(report.stdout)")
        chmod(daemon.runtime, 0o700)

        // The unit, installed in $XDG_DATA_HOME/systemd/user (where scripts/install puts it), then enabled as
        // systemctl does it.
        let home = daemon.environment["HOME"]!
        let units = daemon.environment["XDG_DATA_HOME"]! + "/systemd/user"
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: packageRoot.path + "/contrib/widgetd.service", toPath: units + "/widgetd.service")
        report = try await daemon.cli(["doctor"])
        #expect(report.stdout.contains("widgetd.service is installed but not enabled"), "\(report.stdout)")
        let wants = home + "/.config/systemd/user/default.target.wants"
        try FileManager.default.createDirectory(atPath: wants, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: wants + "/widgetd.service", withDestinationPath: units + "/widgetd.service")
        report = try await daemon.cli(["doctor"])
        #expect(report.stdout.contains("ok      \(units)/widgetd.service installed and enabled"), "\(report.stdout)")

        daemon.stop()
        report = try await daemon.cli(["doctor"])
        #expect(report.stdout.contains("error   daemon not running"))
        #expect(report.stdout.contains("fix: systemctl --user enable --now widgetd"))
    }

    @Test("A state file left by a killed daemon is not believed")
    func staleState() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        _ = await waitFor("daemon.json") { FileManager.default.fileExists(atPath: daemon.runtime + "/daemon.json") }
        daemon.process.killAndWait()
        #expect(FileManager.default.fileExists(atPath: daemon.runtime + "/daemon.json"))
        #expect(try await daemon.cli(["list"]).status == 3)
    }

}
