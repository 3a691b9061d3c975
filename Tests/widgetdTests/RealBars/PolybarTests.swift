import Foundation
import Testing

/// The real polybar on its own Xvfb, with the shipped `contrib/polybar/widgetd.ini` module: the motivation shows on
/// its background, readable, and a click stars it; a to-do's own module ticks its item off and on again.
@Suite("real bars: polybar", .spawnsDaemons)
struct PolybarTests {
    /// The bar's one font: polybar drops a character it lacks (`Dropping unmatched character`).
    static let font = "DejaVu Sans"

    @Test func theContribModuleShowsTheMotivationAndAClickStarsIt() async throws {
        let polybar = try requireExecutable("polybar", package: "polybar")
        let daemon = try await I3barTests.daemonWithData()
        let display = try await VirtualDisplay()
        let config = try daemon.directory.write(
            "polybar.ini",
            """
            include-file = \(packageRoot.path)/contrib/polybar/widgetd.ini

            [bar/main]
            width = 100%
            height = 28
            background = #222222
            foreground = #ffffff
            font-0 = \(Self.font):size=12;3
            modules-right = widgetd-motivation widgetd-todo-1

            """)
        // The module runs `exec widgetd show …` and `widgetd click …`: widgetd on polybar's PATH.
        let bar = try SpawnedProcess(
            polybar, ["-c", config, "main"],
            environment: daemon.environment.merging([
                "DISPLAY": display.display, "LANG": "C.UTF-8", "WIDGETD_CONFIG": daemon.configPath,
                "PATH": widgetdBinary.deletingLastPathComponent().path + ":/usr/bin:/bin",
            ]) { $1 }, log: daemon.directory.url.path + "/polybar.log")
        defer { bar.stop() }
        let strip = Screenshot.Region(minX: 0, minY: 0, maxX: 799, maxY: 27)
        var box: Screenshot.Region?
        var todo: Screenshot.Region?
        let first = try await waitForScreen("the motivation and the to-do on polybar", on: display) { shot in
            todo = shot.bounds(of: I3barTests.white, tolerance: 10, within: strip)
            guard let found = todo, found.width > 20 else { return false }
            var left = strip
            left.maxX = found.minX - 1
            box = left.maxX > left.minX ? shot.bounds(of: I3barTests.grey, within: left) : nil
            return box.map { $0.width > 40 } == true
        }
        let shot = try #require(first, "polybar log:\n\(bar.log)\n\(display.diagnostics)")
        let area = try #require(box)
        // Black text on the motivation's grey.
        #expect(shot.count(differingFrom: I3barTests.grey, by: 150, in: area) > 40, "motivation at \(area)")
        try display.click(x: area.midX, y: area.midY)
        #expect(
            await daemon.waitFor("the star") { daemon.read("motivation.plain") == "★ No zero days.\n" },
            "polybar log:\n\(bar.log)\n\(display.diagnostics)")
        let starred = try #require(
            try await waitForChange("the star drawn filled", from: shot, in: area, take: display.screenshot))
        #expect(try FontCoverage.missing(in: Self.font) == [])
        #expect(!bar.log.contains("Dropping unmatched character"), "polybar log:\n\(bar.log)")

        let item = try #require(todo)
        try display.click(x: item.midX, y: item.midY)
        #expect(
            await daemon.waitFor("Alpha ticked off") { daemon.read("todo_1.plain") == "◉ Alpha\n" },
            "polybar log:\n\(bar.log)")
        let ticked = try #require(
            try await waitForChange("Alpha drawn ticked", from: starred, in: item, take: display.screenshot))
        let (open, done) = (starred.peakBrightness(in: item), ticked.peakBrightness(in: item))
        #expect(done + 40 < open, "Alpha's brightest pixel: \(open) open, \(done) done")
        try display.click(x: item.midX, y: item.midY)
        #expect(await daemon.waitFor("Alpha open again") { daemon.read("todo_1.plain") == "○ Alpha\n" })
        #expect(try await waitForChange("Alpha drawn open", from: ticked, in: item, take: display.screenshot) != nil)
        #expect(!bar.log.contains("Dropping unmatched character"), "polybar log:\n\(bar.log)")
    }
}
