import Foundation
import Glibc
import TestSupport
import Testing
import Timelines

@testable import Daemon

/// A timeline's entries shown at their dates without another call, and a failure keeping the last good entry: the
/// whole daemon in this process, on a clock the test moves (`DrivenDaemon`), with a kind whose answers the test writes
/// (`ScriptedKind`). The engine's rules alone are `EngineTests`'.
@Suite("the daemon on a driven clock: timelines and failures", .waitsOnThreadsOfItsOwn)
struct DrivenTimelineTests {
    private static func inode(_ path: String) -> ino_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_ino : nil
    }

    /// Three entries a second and two apart, policy never: the first is shown at once, each next one at its date, and
    /// a swap writes the bar files alone, not the record.
    @Test func aTimelineIsSwappedInAtItsDatesWithoutAnotherCallOrRecord() throws {
        let steps = ScriptedKind(name: "steps") { now in
            Timeline(
                entries: (0..<3).map {
                    TimelineEntry(
                        date: now.addingTimeInterval(1 + 2 * Double($0)), content: EntryContent(text: "step \($0)"))
                }, policy: .never)
        }
        let driven = try DrivenDaemon(
            config: "widgets:\n  steps:\n    kind: steps\n    output: [plain, i3bar]\n", kinds: [steps])
        // The record (the whole timeline) is written when the timeline arrives; the first entry shows before its date.
        #expect(driven.turns(until: "the timeline's record") { driven.read("steps.json")?.contains("step 2") == true })
        #expect(driven.read("steps.plain") == "step 0\n")
        let record = try #require(Self.inode(driven.output + "/steps.json"))
        driven.advance(by: 2.5)
        #expect(driven.read("steps.plain") == "step 0\n", "not before its date")
        driven.advance(by: 0.5)
        #expect(driven.read("steps.plain") == "step 1\n")
        #expect(driven.read("steps.i3bar")?.contains("step 1") == true)
        driven.advance(by: 2)
        #expect(driven.read("steps.plain") == "step 2\n")
        driven.advance(by: 3600)
        #expect(driven.read("steps.plain") == "step 2\n")
        #expect(Self.inode(driven.output + "/steps.json") == record, "a swap wrote the record again")
        #expect(steps.calls == 1)
        #expect(driven.log.components(separatedBy: "steps: asking steps for a timeline").count == 2, "\(driven.log)")
    }

    /// A reload that fails keeps the last good entry, marked stale where a bar can show it (waybar's class, the
    /// failure in its tooltip), and its acknowledgement says why.
    @Test func aFailingReloadKeepsTheLastGoodEntryMarkedStale() throws {
        let flaky = ScriptedKind(name: "flaky") { now in
            Timeline(entries: [TimelineEntry(date: now, content: EntryContent(text: "good"))], policy: .never)
        }
        let driven = try DrivenDaemon(
            config: "widgets:\n  flaky:\n    kind: flaky\n    output: [plain, waybar]\n", kinds: [flaky])
        #expect(driven.turns(until: "the good entry") { driven.read("flaky.plain") == "good\n" })
        flaky.answer { _ in throw ScriptedKind.Failure(description: "exited with status 2: oops") }
        #expect(driven.writeToFIFO("reload flaky ack=failed\n"))
        #expect(driven.turns(until: "the answer") { driven.acknowledgement("failed") != nil })
        #expect(driven.acknowledgement("failed") == "flaky: exited with status 2: oops\n")
        #expect(driven.read("flaky.plain") == "good\n")
        let waybar = driven.read("flaky.waybar") ?? ""
        #expect(waybar.contains(#""class":["stale"]"#), "\(waybar)")
        #expect(waybar.contains("exited with status 2"), "\(waybar)")
        #expect(driven.log.contains("flaky: exited with status 2: oops"))
    }
}
