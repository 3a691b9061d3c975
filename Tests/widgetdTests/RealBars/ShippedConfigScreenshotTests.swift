import Foundation
import Testing

/// The shipped example config on each real bar with its shipped `contrib/` file, the motivation starred and the first
/// to-do ticked: every bar draws its widgets across the strip. These are the README's screenshots
/// (`WIDGETD_SAVE_SCREENSHOTS=docs/screenshots`).
@Suite("real bars: the shipped config, the README's screenshots", .spawnsDaemons)
struct ShippedConfigScreenshotTests {
    /// Wide enough for the widgets of the shipped `bars: main` in DejaVu Sans 10, the font the contrib configs name.
    /// The columns of text each bar must show are about 85 % of what it drew when the README's pictures were taken:
    /// every widget, not the first few to arrive.
    static let width = 1024
    static let black = Screenshot.RGB("#000000")

    /// A daemon on the shipped config, filled as the README's pictures show it.
    static func filledDaemon() async throws -> DaemonUnderTest {
        let daemon = try DaemonUnderTest(config: try ShippedConfig.text)
        try await ShippedConfig.fill(cli: daemon.cli, read: daemon.read)
        return daemon
    }

    /// Starts i3 on `display` with `bar` (an i3 `bar { }` block, or an `include` of one) in the font the contrib
    /// configs name.
    static func startI3(_ bar: String, on display: VirtualDisplay, daemon: DaemonUnderTest) throws -> SpawnedProcess {
        let i3 = try requireExecutable("i3", package: "i3-wm")
        _ = try requireExecutable("i3bar", package: "i3-wm")
        let config = try daemon.directory.write(
            "i3.conf", "# i3 config file (v4)\nfont pango:DejaVu Sans 10\n\(bar)\n")
        return try SpawnedProcess(
            i3, ["-c", config],
            environment: ShippedConfig.barEnvironment(
                daemon.environment, config: daemon.configPath, display: ["DISPLAY": display.display]),
            log: daemon.directory.url.path + "/i3.log")
    }

    /// Waits for an X bar's top `rows` to settle with text across them and saves them as `name`.
    static func screenshot(
        _ name: String, on display: VirtualDisplay, rows: Int, columns: Int, log: () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let strip = Screenshot.Region(minX: 0, minY: 0, maxX: display.width - 1, maxY: rows - 1)
        let settled = try await waitForSettledStrip(
            "\(name): the bar drawn and still", in: strip, background: black, columns: columns,
            sourceLocation: sourceLocation, take: display.screenshot)
        #expect(settled != nil, "\(log())\n\(display.diagnostics)", sourceLocation: sourceLocation)
        try display.saveScreenshot(named: name, height: rows, force: settled == nil)
    }

    @Test func i3barWithWidgetdBar() async throws {
        let daemon = try await Self.filledDaemon()
        let display = try await VirtualDisplay(width: Self.width)
        let i3 = try Self.startI3(
            "include \(packageRoot.path)/contrib/i3/config", on: display, daemon: daemon)
        defer { i3.stop() }
        try await Self.screenshot("i3bar-widgetd-bar", on: display, rows: 20, columns: 520) { i3.log }
    }

    @Test func i3barWithI3blocks() async throws {
        let i3blocks = try requireExecutable("i3blocks", package: "i3blocks")
        let daemon = try await Self.filledDaemon()
        let display = try await VirtualDisplay(width: Self.width)
        let i3 = try Self.startI3(
            "bar {\n    status_command exec '\(i3blocks)' -c '\(packageRoot.path)/contrib/i3blocks.conf'\n"
                + "    position top\n}", on: display, daemon: daemon)
        defer { i3.stop() }
        try await Self.screenshot("i3bar-i3blocks", on: display, rows: 20, columns: 380) { i3.log }
    }

    @Test func polybar() async throws {
        let polybar = try requireExecutable("polybar", package: "polybar")
        let daemon = try await Self.filledDaemon()
        let display = try await VirtualDisplay(width: Self.width)
        let modules = ["motivation", "todo-1", "todo-2", "todo-3", "clock"].map { "widgetd-" + $0 }
        let config = try daemon.directory.write(
            "polybar.ini",
            """
            include-file = \(packageRoot.path)/contrib/polybar/widgetd.ini

            [bar/main]
            width = 100%
            height = 24
            background = #000000
            foreground = #ffffff
            font-0 = DejaVu Sans:size=10;2
            module-margin = 1
            modules-right = \(modules.joined(separator: " "))

            """)
        let bar = try SpawnedProcess(
            polybar, ["-c", config, "main"],
            environment: ShippedConfig.barEnvironment(
                daemon.environment, config: daemon.configPath, display: ["DISPLAY": display.display]),
            log: daemon.directory.url.path + "/polybar.log")
        defer { bar.stop() }
        try await Self.screenshot("polybar", on: display, rows: 24, columns: 400) { bar.log }
        #expect(!bar.log.contains("Dropping unmatched character"), "polybar log:\n\(bar.log)")
    }

    /// A headless sway on the shipped config, filled as the README's pictures show it, with `bar` in its config.
    static func sway(with bar: String) async throws -> HeadlessSway {
        let sway = try HeadlessSway(widgets: try ShippedConfig.text)
        try await ShippedConfig.fill(
            cli: { arguments in
                try sway.cli(arguments)
                return ProcessResult(status: 0, stdout: "", stderr: "")
            }, read: sway.read)
        try await sway.start(bar, width: width)
        return sway
    }

    /// Waits for a sway bar's top `rows` to settle with text across them and saves them as `name`.
    static func screenshot(
        _ name: String, on sway: HeadlessSway, rows: Int, background: Screenshot.RGB, columns: Int
    ) async throws {
        let strip = Screenshot.Region(minX: 0, minY: 0, maxX: width - 1, maxY: rows - 1)
        let settled = try await waitForSettledStrip(
            "\(name): the bar drawn and still", in: strip, background: background, columns: columns,
            take: sway.screenshot)
        #expect(settled != nil, "sway:\n\(sway.log)")
        try sway.saveScreenshot(named: name, height: rows)
    }

    @Test func swaybarWithWidgetdBar() async throws {
        _ = try requireExecutable("swaybar", package: "sway")
        let sway = try await Self.sway(with: "include \(packageRoot.path)/contrib/sway/config\n")
        try await Self.screenshot("swaybar-widgetd-bar", on: sway, rows: 20, background: Self.black, columns: 520)
    }

    @Test func waybar() async throws {
        _ = try requireExecutable("waybar", package: "waybar")
        let contrib = packageRoot.path + "/contrib/waybar"
        let sway = try await Self.sway(with: "exec waybar -c \(contrib)/config.jsonc -s \(contrib)/style.css\n")
        // Around the modules' dark boxes, the light GTK default (Adwaita's #f6f5f4): `-s` replaces waybar's own style.
        try await Self.screenshot("waybar", on: sway, rows: 23, background: Screenshot.RGB("#f6f5f4"), columns: 740)
    }

    @Test(.aheadInLine) func tmuxInRxvtUnicode() async throws {
        let tmux = try requireExecutable("tmux", package: "tmux")
        let urxvt = try requireExecutable("urxvt", package: "rxvt-unicode")
        let daemon = try await Self.filledDaemon()
        let display = try await VirtualDisplay(width: Self.width, height: 100)
        let socket = daemon.directory.url.path + "/tmux.sock"
        let config = packageRoot.path + "/contrib/tmux/widgetd.tmux.conf"
        // A terminal of the screen's width (DejaVu Sans Mono at 16 pixels is 10 wide) and three rows, the last
        // tmux's status line; no window manager, so it sits at the top left.
        let terminal = try SpawnedProcess(
            urxvt,
            [
                "-fn", "xft:DejaVu Sans Mono:pixelsize=16", "-geometry", "\(Self.width / 10)x3+0+0", "-b", "0",
                "-bg", "black", "-fg", "white", "+sb", "-e", tmux, "-S", socket, "-f", config, "new-session",
                "sleep 600",
            ],
            environment: ShippedConfig.barEnvironment(
                daemon.environment, config: daemon.configPath, display: ["DISPLAY": display.display]),
            log: daemon.directory.url.path + "/urxvt.log")
        defer {
            _ = try? runCapturing(tmux, ["-S", socket, "kill-server"], environment: [:])
            terminal.stop()
        }
        // tmux's status line, green by default right of the motivation's grey: the picture is that row, once the
        // widgets' text (the motivation's block, the done to-do's grey, the time) covers most of it.
        let green = Screenshot.RGB("#00cd00")
        let whole = Screenshot.Region(minX: 0, minY: 0, maxX: Self.width - 1, maxY: display.height - 1)
        var found: Screenshot.Region?
        _ = try await waitForScreen("tmux's status line", on: display) { shot in
            found = shot.bounds(of: green, tolerance: 30, within: whole)
            return found != nil
        }
        let row = try #require(found, "urxvt:\n\(terminal.log)\n\(display.diagnostics)")
        let line = Screenshot.Region(minX: 0, minY: row.minY, maxX: Self.width - 1, maxY: row.maxY)
        let settled = try await waitForSettledStrip(
            "tmux's widgets drawn and still", in: line, background: green, columns: 430, take: display.screenshot)
        // Its right end, the to-do and the time, at the terminal's right edge: the terminal fills the picture.
        #expect(settled != nil && row.maxX > Self.width * 9 / 10, "status line at \(row)")
        try display.saveScreenshot(named: "tmux", height: row.maxY - row.minY + 1, top: row.minY)
    }
}
