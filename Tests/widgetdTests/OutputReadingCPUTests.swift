import Foundation
import Testing

/// Issue 38, item 3: a command's output is never read in a spin. A persist script printing with no newline was read
/// flat out, a write at a time; `yes` as a repeat command was read flat out past the 64 KiB a run keeps, to be
/// dropped; a command run once was read flat out until its timeout. Each cost the daemon a core; now each waits on
/// its full pipe between a few reads a second.
@Suite("exec output: reading never spins", .spawnsDaemons)
struct OutputReadingCPUTests {
    enum Flood: String, CaseIterable, CustomTestStringConvertible {
        case persistWithoutNewline, repeatThatNeverExits, runUntilItsTimeout
        var testDescription: String { rawValue }

        /// The widget's settings; its command writes its pid to `pid`, then floods.
        var settings: String {
            switch self {
            case .persistWithoutNewline:
                "interval: persist\n    command: [sh, -c, 'echo $$ > pid; while :; do printf x; done']"
            case .repeatThatNeverExits:
                "interval: repeat\n    command: [sh, -c, 'echo $$ > pid; exec yes']"
            case .runUntilItsTimeout:
                "timeout: 1m\n    command: [sh, -c, 'echo $$ > pid; exec yes']"
            }
        }
    }

    @Test(arguments: Flood.allCases)
    func aCommandPrintingFlatOutCostsTheDaemonNoCore(flood: Flood) async throws {
        let daemon = try DaemonUnderTest(config: "widgets:\n  flood:\n    kind: exec\n    \(flood.settings)\n")
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
        }
        #expect(daemon.process.isRunning)
    }
}
