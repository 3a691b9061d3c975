import Foundation
import Testing

/// Issue 38, item 3: a command's output is never read in a spin. A persist script printing with no newline was read
/// flat out, a write at a time; `yes` as a repeat command was read flat out past the 64 KiB a run keeps, to be
/// dropped; a command run once was read flat out until its timeout. Each cost the daemon a core; now each waits on
/// its full pipe between a few reads a second. The same holds for a plugin's output and its standard error.
@Suite("exec output: reading never spins", .spawnsDaemons)
struct OutputReadingCPUTests {
    enum Flood: String, CaseIterable, CustomTestStringConvertible {
        case persistWithoutNewline, repeatThatNeverExits, runUntilItsTimeout
        case pluginLineWithoutEnd, pluginStandardErrorFlatOut
        var testDescription: String { rawValue }

        /// The config: one widget `flood`, whose command (or plugin) writes its pid to `pid`, then floods.
        var config: String {
            switch self {
            case .persistWithoutNewline:
                Self.exec("interval: persist\n    command: [sh, -c, 'echo $$ > pid; while :; do printf x; done']")
            case .repeatThatNeverExits:
                Self.exec("interval: repeat\n    command: [sh, -c, 'echo $$ > pid; exec yes']")
            case .runUntilItsTimeout:
                Self.exec("timeout: 1m\n    command: [sh, -c, 'echo $$ > pid; exec yes']")
            case .pluginLineWithoutEnd:
                Self.plugin("while :; do printf x; done")
            case .pluginStandardErrorFlatOut:
                Self.plugin("exec yes >&2")
            }
        }

        private static func exec(_ settings: String) -> String {
            "widgets:\n  flood:\n    kind: exec\n    \(settings)\n"
        }

        /// A plugin that says hello, then runs `flood` in the shell.
        private static func plugin(_ flood: String) -> String {
            let hello = #"{"type":"hello","protocol":1,"kind":{"name":"flood"}}"#
            return """
                plugins:
                  flood: [sh, -c, 'printf ''%s\\n'' ''\(hello)''; echo $$ > pid; \(flood)']
                widgets:
                  flood:
                    kind: flood

                """
        }
    }

    @Test(.aheadInLine, arguments: Flood.allCases)
    func aCommandPrintingFlatOutCostsTheDaemonNoCore(flood: Flood) async throws {
        let daemon = try DaemonUnderTest(config: flood.config)
        let pidPath = daemon.directory.url.path + "/pid"
        #expect(await daemon.waitFor("the command to start") { FileManager.default.fileExists(atPath: pidPath) })
        #expect(
            await daemon.waitFor("its pid") {
                (try? String(contentsOfFile: pidPath, encoding: .utf8))?.hasSuffix("\n") == true
            })
        // The seconds are the measurement: the daemon's own CPU, which the other tests' load does not raise.
        await DaemonGate.giveBackTurn()
        let before = try cpuTicks(of: daemon.process.processIdentifier)
        try await Task.sleep(for: .seconds(3))
        let used = try cpuTicks(of: daemon.process.processIdentifier) - before
        // A reader that spins uses a core, 100 ticks a second; one that waits on the pipe about none. 5 % is 15.
        #expect(used < 15, "the daemon used \(used) ticks of CPU in 3 s (a spinning reader uses about 300)")
        switch flood {
        case .persistWithoutNewline:
            #expect(daemon.read("flood.plain")?.hasPrefix("xxxx") == true, "the first 64 KiB are shown as its line")
            #expect(daemon.log.contains("flood: a line longer than 64 KiB was cut"), "\(daemon.log)")
        case .repeatThatNeverExits:
            let notes = daemon.log.components(separatedBy: "flood: printed more than 64 KiB in one run").count - 1
            #expect(notes == 1, "said once: \(daemon.log)")
        case .runUntilItsTimeout:
            // Read with a pause between reads once past its 64 KiB, until its timeout ends it.
            break
        case .pluginLineWithoutEnd, .pluginStandardErrorFlatOut:
            // Read at most a thousand (its output) or fifty (its standard error) times a second.
            break
        }
        #expect(daemon.process.isRunning)
    }
}
