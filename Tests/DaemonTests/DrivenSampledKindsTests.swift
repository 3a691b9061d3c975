import Foundation
import Kind
import Providers
import SystemKinds
import TestSupport
import Testing

@testable import Daemon

/// A sampled kind in the daemon: its first entry, then the next sample an `interval:` later, read from a tree the test
/// changes in between; the clock moved by the test (`DrivenDaemon`), the kinds reading that tree instead of /proc.
@Suite("the daemon on a driven clock: sampled kinds", .waitsOnThreadsOfItsOwn)
struct DrivenSampledKindsTests {
    @Test func theNextSampleAnIntervalLaterShowsTheIntervalsUsage() throws {
        let tree = try FakeProcTree()
        defer { tree.directory.remove() }
        let driven = try DrivenDaemon(
            config: """
                widgets:
                  cpu:
                    kind: cpu
                    interval: 1s
                    output: [plain, waybar]
                    intent: {format: "{usage} {cpu0}"}
                  load:
                    kind: load
                    interval: 1h
                """, kinds: tree.kinds)
        #expect(driven.turns(until: "usage since boot") { driven.read("cpu.plain") == "75% 75%\n" }, "\(driven.log)")
        #expect(driven.turns(until: "the load") { driven.read("load.plain") == "0.25\n" })
        // A quarter of the next 100 ticks busy: only a sample that took the first as its base shows 25 %.
        try tree.stat(busy: 55, idle: 85)
        driven.settle()
        #expect(driven.read("cpu.plain") == "75% 75%\n", "no sample before the interval has passed")
        driven.advance(by: 1)
        #expect(
            driven.turns(until: "the interval's usage") { driven.read("cpu.plain") == "25% 25%\n" }, "\(driven.log)")
        #expect(
            driven.read("cpu.waybar")?.contains(#""percentage":25"#) == true,
            "waybar's percentage is the usage: \(driven.read("cpu.waybar") ?? "no file")")
        // Every sample came from the daemon itself: nothing was forked, so no line of it speaks of a command.
        #expect(!driven.log.contains("command"), "\(driven.log)")
    }

    /// A reading of the system is read again at once after a restart: none is kept under $XDG_STATE_HOME, neither at
    /// each sample (a disk write every few seconds on a laptop) nor at the stop, while a quote beside it is.
    @Test func aSampleIsNotKeptForTheNextRunAQuoteIs() throws {
        let tree = try FakeProcTree()
        defer { tree.directory.remove() }
        let driven = try DrivenDaemon(
            config: "widgets:\n  load:\n    kind: load\n    interval: 1s\n  quote:\n    kind: quotes\n",
            kinds: tree.kinds)
        let kept = driven.directory.url.path + "/state/widgetd/entries/"
        #expect(driven.turns(until: "the quote kept") { FileManager.default.fileExists(atPath: kept + "quote.json") })
        #expect(driven.turns(until: "the first sample") { driven.read("load.plain") == "0.25\n" })
        try tree.load("1.50")
        driven.advance(by: 1)
        #expect(driven.turns(until: "the next sample") { driven.read("load.plain") == "1.50\n" })
        #expect(!FileManager.default.fileExists(atPath: kept + "load.json"), "kept at a sample")
        driven.stop()
        #expect(!FileManager.default.fileExists(atPath: kept + "load.json"), "kept at the stop")
        #expect(FileManager.default.fileExists(atPath: kept + "quote.json"))
    }

    /// As i3status shows a module's text: whole, however long, unless the widget names a family, which cuts it to the
    /// family's width. (i3status's memory module by default is 21 cells, one over accessoryInline's 20.)
    @Test func aSystemWidgetWithoutAFamilyShowsItsTextWholeANamedFamilyCutsIt() throws {
        let tree = try FakeProcTree()
        defer { tree.directory.remove() }
        let format = "load {1min} {5min} {15min} over the last quarter hour"
        let driven = try DrivenDaemon(
            config: """
                widgets:
                  whole:
                    kind: load
                    output: [plain, i3bar]
                    intent: {format: "\(format)"}
                  cut:
                    kind: load
                    family: accessoryInline
                    intent: {format: "\(format)"}
                """, kinds: tree.kinds)
        let text = "load 0.25 0.50 0.75 over the last quarter hour"
        #expect(driven.turns(until: "the whole text") { driven.read("whole.plain") == text + "\n" }, "\(driven.log)")
        #expect(
            driven.read("whole.i3bar")?.contains(#""full_text":"\#(text)""#) == true,
            "\(driven.read("whole.i3bar") ?? "")")
        #expect(
            driven.turns(until: "the cut text") { driven.read("cut.plain") == "load 0.25 0.50 0.75…\n" },
            "\(driven.read("cut.plain") ?? "no file")")
    }
}
