import Config
import Foundation
import TestSupport
import Testing
import TimeZones
import Timelines
import YAML

/// Issue 10, item 12: values `check` used to pass although they can never work.
@Suite("widgets.yaml values that cannot work")
struct ConfigInputTests {
    func schedule(_ expression: String) -> ConfigLoadResult {
        loadConfig("widgets:\n  w:\n    kind: sample\n    schedule: \"\(expression)\"\n")
    }

    @Test func scheduleThatNeverFiresIsAnErrorAtItsDayField() throws {
        let result = schedule("0 0 31 2 *")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(result.configuration == nil)
        #expect(diagnostic.message == "schedule '0 0 31 2 *' never fires: February has no day 31")
        // `    schedule: "0 0 31 2 *"`: the quote is column 15, the day field column 20.
        #expect(diagnostic.mark == YAMLMark(line: 4, column: 20))
    }

    @Test func severalMonthsAndDaysAreNamed() throws {
        let result = schedule("0 0 30,31 2 *")
        #expect(
            result.diagnostics.map(\.message) == [
                "schedule '0 0 30,31 2 *' never fires: February has no days 30 and 31"
            ])
        let two = schedule("0 0 31 feb,apr,jun *")
        #expect(
            two.diagnostics.map(\.message) == [
                "schedule '0 0 31 feb,apr,jun *' never fires: February, April and June have no day 31"
            ])
    }

    /// Leap days fire, a weekday widens the match (Vixie's rule), and one good month is enough.
    @Test(arguments: ["0 0 29 2 *", "0 0 31 2 mon", "0 0 31 1-2 *", "0 0 30,31 2,3 *", "@yearly", "0 0 */30 2 *"])
    func schedulesThatFireAreAccepted(_ expression: String) throws {
        let result = schedule(expression)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        // The static answer agrees with the search: a fire time within 8 years of any start.
        let cron = try CronExpression(parsing: expression)
        let start = Date(timeIntervalSince1970: 1_798_761_600)  // 2027-01-01, three years before a leap day
        #expect(cron.nextDate(after: start, in: Zone.utc) != nil)
    }

    @Test(arguments: ["0 0 31 2 *", "0 0 30 2 *", "0 0 31 4,6,9,11 *", "0 0 30,31 2 *"])
    func theSearchFindsNothingForThoseRejected(_ expression: String) throws {
        let cron = try CronExpression(parsing: expression)
        #expect(cron.neverFiresReason != nil)
        #expect(
            cron.nextDate(after: Date(timeIntervalSince1970: 1_798_761_600), in: Zone.utc) == nil)
    }

    func command(_ words: String) -> ConfigLoadResult {
        loadConfig("widgets:\n  w:\n    kind: exec\n    command: \(words)\n")
    }

    @Test func missingAbsoluteProgramIsAnErrorAtTheProgram() throws {
        let result = command("[/nonexistent/widgetd-script, --flag]")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(result.configuration == nil)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.message == "command '/nonexistent/widgetd-script' does not exist")
        #expect(diagnostic.mark == YAMLMark(line: 4, column: 15))
    }

    @Test func directoryOrNonExecutableProgramIsAnError() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let script = directory.appending("script.sh")
        try "#!/bin/sh\necho hi\n".write(toFile: script, atomically: true, encoding: .utf8)
        #expect(command("[\(script)]").diagnostics.map(\.message) == ["command '\(script)' is not executable"])
        #expect(
            command("[\(directory.path)]").diagnostics.map(\.message) == ["command '\(directory.path)' is a directory"])
        chmod(script, 0o755)
        #expect(command("[\(script)]").diagnostics.isEmpty)
    }

    /// A bare name is looked up on PATH as execvp does; not found is a warning, as the daemon's PATH may differ.
    @Test func programNotOnPathIsAWarningAndTheConfigStillLoads() throws {
        let result = command("[widgetd-no-such-program-xyz, run]")
        #expect(result.configuration?.widgets.count == 1)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.severity == .warning)
        #expect(diagnostic.message.hasPrefix("command 'widgetd-no-such-program-xyz' is not found on PATH ("))
        #expect(diagnostic.headline.hasPrefix("widgets.yaml:4:15: warning: "))
        #expect(command("[sh, -c, 'date']").diagnostics.isEmpty)
    }
}
