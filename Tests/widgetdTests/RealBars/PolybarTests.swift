import Foundation
import Testing

/// The real polybar on its own Xvfb, with the shipped `contrib/polybar/widgetd.ini` module: the motivation shows on
/// its background, readable, and a click stars it.
@Suite("real bars: polybar", .spawnsDaemons)
struct PolybarTests {
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
            font-0 = DejaVu Sans:size=12;3
            modules-right = widgetd-motivation

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
        let first = try await waitForScreen("the motivation on polybar", on: display) { shot in
            box = shot.bounds(of: I3barTests.grey, within: strip)
            return box.map { $0.width > 40 } == true
        }
        let shot = try #require(first, "polybar log:\n\(bar.log)\n\(display.diagnostics)")
        let area = try #require(box)
        // Black text on the motivation's grey.
        #expect(shot.count(differingFrom: I3barTests.grey, by: 150, in: area) > 40, "motivation at \(area)")
        try display.saveScreenshot(named: "polybar")
        try display.click(x: area.midX, y: area.midY)
        #expect(
            await daemon.waitFor("the star") { daemon.read("motivation.plain") == "⭐ No zero days.\n" },
            "polybar log:\n\(bar.log)\n\(display.diagnostics)")
        #expect(
            try await waitForScreen("the starred motivation on screen", on: display) { now in
                now.bounds(of: I3barTests.grey, within: strip) != box
            } != nil)
    }
}
