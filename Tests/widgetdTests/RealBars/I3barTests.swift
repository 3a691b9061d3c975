import Foundation
import Testing

/// The real i3bar, under i3 on its own Xvfb, with `widgetd bar` as its status command and through i3blocks: the
/// widgets are on the screen, readable, and a click changes them.
@Suite("real bars: i3bar", .spawnsDaemons)
struct I3barTests {
    static let config = """
        widgets:
          motivation:
            kind: motivations
            output: plain
          todos:
            kind: todos
            family: systemLarge
            output: plain
          todo_1:
            kind: todos
            intent:
              item: 1
        bars:
          main:
            - motivation
            - todos: {border: "#ff0000"}

        """

    /// The status area of an 800-pixel-wide top bar: right of the workspace buttons, the bar's rows.
    static let statusArea = Screenshot.Region(minX: 100, minY: 0, maxX: 799, maxY: 30)
    static let black = Screenshot.RGB("#000000")
    static let grey = Screenshot.RGB("#d3d3d3")
    static let white = Screenshot.RGB("#ffffff")
    /// The font the i3 config below names, whose glyphs the widgets' symbols must be in.
    static let font = "DejaVu Sans Mono"

    /// A daemon with one motivation and two to-dos, as a new user has after `motivations add` and `todos add`.
    static func daemonWithData() async throws -> DaemonUnderTest {
        let daemon = try DaemonUnderTest(config: config)
        let env = daemon.environment
        #expect(try runWidgetd(["motivations", "add", "No zero days."], environment: env).status == 0)
        for title in ["Alpha", "Beta"] {
            #expect(try runWidgetd(["todos", "add", title], environment: env).status == 0)
        }
        #expect(await daemon.waitFor("two to-dos") { daemon.read("todos.plain") == "○ Alpha  ○ Beta\n" })
        #expect(await daemon.waitFor("the motivation") { daemon.read("motivation.plain") == "☆ No zero days.\n" })
        return daemon
    }

    /// Starts i3 on `display` with a bar whose status command is `statusCommand`.
    static func startI3(_ statusCommand: String, on display: VirtualDisplay, daemon: DaemonUnderTest) throws
        -> SpawnedProcess
    {
        let i3 = try requireExecutable("i3", package: "i3-wm")
        _ = try requireExecutable("i3bar", package: "i3-wm")
        let config = try daemon.directory.write(
            "i3-\(UUID().uuidString).conf",
            """
            # i3 config file (v4)
            font pango:\(font) 12
            bar {
                status_command \(statusCommand)
                position top
                tray_output none
            }

            """)
        return try SpawnedProcess(
            i3, ["-c", config],
            environment: daemon.environment.merging([
                "DISPLAY": display.display, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                "WIDGETD_CONFIG": daemon.configPath,
            ]) { $1 }, log: daemon.directory.url.path + "/i3-\(UUID().uuidString).log")
    }

    /// The to-dos' red frame, and the motivation's grey box left of it (the to-dos' light text has grey pixels too).
    static func blocks(in shot: Screenshot) -> (todos: Screenshot.Region?, motivation: Screenshot.Region?) {
        guard let frame = shot.bounds(of: Screenshot.RGB("#ff0000"), tolerance: 40, within: statusArea) else {
            return (nil, nil)
        }
        var left = statusArea
        left.maxX = frame.minX - 1
        return (frame, left.maxX > left.minX ? shot.bounds(of: grey, within: left) : nil)
    }

    /// Expects the done item of the to-dos' two (Beta, right) drawn dimmer than the open one (Alpha, left) in `frame`:
    /// their text's brightest pixels, inside the red frame.
    static func expectBetaDimmed(
        in shot: Screenshot, frame: Screenshot.Region, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let inside = frame.inset(by: 3)
        var alpha = inside
        alpha.maxX = frame.minX + frame.width * 2 / 5
        var beta = inside
        beta.minX = frame.minX + frame.width * 3 / 5
        let (open, done) = (shot.peakBrightness(in: alpha), shot.peakBrightness(in: beta))
        #expect(done + 40 < open, "done Beta's brightest \(done), open Alpha's \(open)", sourceLocation: sourceLocation)
    }

    @Test func widgetdBarShowsTheMotivationOnItsBackgroundAndClicksByPosition() async throws {
        let daemon = try await Self.daemonWithData()
        let display = try await VirtualDisplay()
        let i3 = try Self.startI3(
            "exec '\(widgetdBinary.path)' bar --bar main --config '\(daemon.configPath)'", on: display, daemon: daemon)
        defer { i3.stop() }
        // The motivation is the grey box; the to-dos the red frame (their `border:` in bars:).
        var motivation: Screenshot.Region?
        var todos: Screenshot.Region?
        let first = try await waitForScreen("both blocks on i3bar", on: display) { shot in
            (todos, motivation) = Self.blocks(in: shot)
            return motivation.map { $0.width > 40 } == true && todos.map { $0.width > 40 } == true
        }
        if first == nil { try display.saveScreenshot(named: "failed-i3bar-widgetd-bar", force: true) }
        let shot = try #require(first, "i3 log:\n\(i3.log)")
        let box = try #require(motivation)
        let frame = try #require(todos)
        // Black text on the grey: many pixels in the box far from the grey.
        #expect(shot.count(differingFrom: Self.grey, by: 150, in: box.inset(by: 2)) > 40, "motivation at \(box)")
        // The to-dos' text on i3bar's black.
        #expect(shot.count(differingFrom: Self.black, by: 150, in: frame.inset(by: 2)) > 40, "to-dos at \(frame)")

        #expect(try FontCoverage.missing(in: Self.font) == [])

        // A click on the motivation stars it: ☆ becomes ★ where it is.
        try display.click(x: box.midX, y: box.midY)
        #expect(
            await daemon.waitFor("the star") { daemon.read("motivation.plain") == "★ No zero days.\n" },
            "clicked \(box.midX),\(box.midY); i3:\n\(i3.log)\ndaemon:\n\(daemon.log.suffix(3000))")
        let starred = try #require(
            try await waitForChange("the star drawn filled", from: shot, in: box, take: display.screenshot))
        // A click near the right end of the to-dos ticks off the one under the pointer, Beta, not the first.
        try display.click(x: frame.maxX - 12, y: frame.midY)
        #expect(
            await daemon.waitFor("Beta ticked off") { daemon.read("todos.plain") == "○ Alpha  ◉ Beta\n" },
            "\(daemon.read("todos.plain") ?? "")")
        let ticked = try #require(
            try await waitForChange("Beta drawn ticked", from: starred, in: frame, take: display.screenshot))
        Self.expectBetaDimmed(in: ticked, frame: frame)
        // Beta kept its place: a second click at the same spot opens it again.
        try display.click(x: frame.maxX - 12, y: frame.midY)
        #expect(
            await daemon.waitFor("Beta open again") { daemon.read("todos.plain") == "○ Alpha  ○ Beta\n" },
            "\(daemon.read("todos.plain") ?? "")")
        #expect(try await waitForChange("Beta drawn open", from: ticked, in: frame, take: display.screenshot) != nil)
    }

    /// The last few kB of the file at `path`, for a failure's message.
    static func tail(of path: String) -> Substring {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").suffix(4000)
    }

    @Test func i3blocksShowsTheMotivationReadableOnTheBlackBar() async throws {
        let i3blocks = try requireExecutable("i3blocks", package: "i3blocks")
        let daemon = try await Self.daemonWithData()
        let widgetd = widgetdBinary.path
        let blocks = try daemon.directory.write(
            "i3blocks.conf",
            """
            [widgetd]
            instance=motivation
            command=case $BLOCK_BUTTON in [1-5]) exec '\(widgetd)' click motivation --button $BLOCK_BUTTON;; esac

            [widgetd]
            instance=motivation
            interval=persist
            format=json
            command=exec '\(widgetd)' show motivation --format i3bar --follow

            [widgetd]
            instance=todo_1
            command=case $BLOCK_BUTTON in [1-5]) exec '\(widgetd)' click todo_1 --button $BLOCK_BUTTON;; esac

            [widgetd]
            instance=todo_1
            interval=persist
            format=json
            command=exec '\(widgetd)' show todo_1 --format i3bar --follow

            """)
        let display = try await VirtualDisplay()
        // i3blocks' debug log (`-vv`: each click it parses and each child it forks) goes to a file the failures print.
        let i3blocksLog = daemon.directory.url.path + "/i3blocks.log"
        let i3 = try Self.startI3(
            "exec '\(i3blocks)' -vv -c '\(blocks)' 2>'\(i3blocksLog)'", on: display, daemon: daemon)
        defer { i3.stop() }
        // i3blocks 1.4 drops the background: the text is on i3bar's black, in the motivation's grey; the to-do's
        // right of it in i3bar's white, found first, as the white text's smoothed edges hold greys too.
        var text: Screenshot.Region?
        var todo: Screenshot.Region?
        let first = try await waitForScreen("the motivation's and the to-do's text on i3bar", on: display) { shot in
            todo = shot.bounds(of: Self.white, tolerance: 10, within: Self.statusArea)
            guard let found = todo, found.width > 20 else { return false }
            var left = Self.statusArea
            left.maxX = found.minX - 1
            text = left.maxX > left.minX ? shot.bounds(of: Self.grey, tolerance: 40, within: left) : nil
            return text.map { $0.width > 40 } == true
        }
        if first == nil { try display.saveScreenshot(named: "failed-i3bar-i3blocks", force: true) }
        let shot = try #require(first, "i3 log:\n\(i3.log)")
        let area = try #require(text)
        #expect(shot.count(differingFrom: Self.black, by: 150, in: area) > 40, "text at \(area)")
        try display.click(x: area.midX, y: area.midY)
        // i3blocks 1.4 reads its clicks a byte at a time and stops at an empty line. i3bar sends its first click as
        // four writes ("[", "\n", the event, "\n"); when i3blocks reads the "[" alone and the other three arrive
        // before it reads again, it reads the empty line, stops, and the event waits in its stdin until the next click
        // (vivien/i3blocks#34, "Clicks are queued"; seen here once in 25 runs beside two busy loops, and made to
        // happen by writing to i3blocks' stdin by hand). So, if no star has come after 3 s, a click with a button the
        // block's command ignores (9) makes i3blocks read what waits: it runs the first click and drops the second
        // while that runs ("process already spawned"), and when nothing waited the second does nothing.
        let clicked = ContinuousClock.now
        var nudged = false
        #expect(
            try await daemon.waitFor("the star") {
                if !nudged, clicked.duration(to: .now) > .seconds(3) {
                    nudged = true
                    try display.click(x: area.midX, y: area.midY, button: 9)
                }
                return daemon.read("motivation.plain") == "★ No zero days.\n"
            },
            "clicked \(area.midX),\(area.midY); i3:\n\(i3.log)\ni3blocks:\n\(Self.tail(of: i3blocksLog))\ndaemon:\n\(daemon.log.suffix(3000))"
        )
        // The grey's bounds may start after the hollow star's thin strokes: all left of the to-do is looked at.
        var motivationSide = Self.statusArea
        motivationSide.maxX = try #require(todo).minX - 1
        let starred = try #require(
            try await waitForChange("the star drawn filled", from: shot, in: motivationSide, take: display.screenshot))
        #expect(try FontCoverage.missing(in: Self.font) == [])

        // The to-do's own block: a click ticks Alpha off, dimmed in its place; a second opens it again.
        let item = try #require(todo)
        try display.click(x: item.midX, y: item.midY)
        #expect(
            await daemon.waitFor("Alpha ticked off") { daemon.read("todo_1.plain") == "◉ Alpha\n" },
            "i3blocks:\n\(Self.tail(of: i3blocksLog))\ndaemon:\n\(daemon.log.suffix(3000))")
        let ticked = try #require(
            try await waitForChange("Alpha drawn ticked", from: starred, in: item, take: display.screenshot))
        let (open, done) = (starred.peakBrightness(in: item), ticked.peakBrightness(in: item))
        #expect(done + 40 < open, "Alpha's brightest pixel: \(open) open, \(done) done")
        try display.click(x: item.midX, y: item.midY)
        #expect(
            await daemon.waitFor("Alpha open again") { daemon.read("todo_1.plain") == "○ Alpha\n" },
            "i3blocks:\n\(Self.tail(of: i3blocksLog))")
        #expect(try await waitForChange("Alpha drawn open", from: ticked, in: item, take: display.screenshot) != nil)
    }
}
