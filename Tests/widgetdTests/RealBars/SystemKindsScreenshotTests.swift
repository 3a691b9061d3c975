import Foundation
import TestSupport
import Testing

/// The system kinds on i3bar with `widgetd bar --bar system`, reading this machine's /proc and /sys, its network
/// interface and a PulseAudio server of the test's own: the README's screenshot of them
/// (`WIDGETD_SAVE_SCREENSHOTS=docs/screenshots`).
@Suite("real bars: the system kinds on i3bar, the README's screenshot", .spawnsDaemons)
struct SystemKindsScreenshotTests {
    /// About 85 % of the 476 columns with text when the README's picture was taken: every widget, since the clock
    /// alone is a hundred.
    static let columns = 400

    /// The example in docs/kinds.md's "System kinds" (its YAML block with `bars: system`), read from there so that
    /// the picture shows what the docs say.
    static var config: String {
        get throws {
            let text = try String(contentsOf: packageRoot.appending(path: "docs/kinds.md"), encoding: .utf8)
            let blocks = text.components(separatedBy: "```yaml\n").dropFirst().map {
                $0.components(separatedBy: "```")[0]
            }
            return try #require(blocks.first { $0.contains("\n  system: [") }, "docs/kinds.md: no `bars: system`")
        }
    }

    /// The widgets of `bars: system`, in order.
    static func widgets(of config: String) throws -> [String] {
        let line = try #require(config.split(separator: "\n").first { $0.hasPrefix("  system: [") })
        return line.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func systemBarOnI3bar() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let pulse = try await PulseServer(in: scratch.url.path)
        defer { pulse.stop() }
        #expect(try pulse.pactl(["set-sink-volume", "@DEFAULT_SINK@", "60%"]).status == 0)
        let config = try Self.config
        let widgets = try Self.widgets(of: config)
        #expect(widgets.count >= 8, "\(widgets)")
        let daemon = try DaemonUnderTest(config: config, extraEnvironment: pulse.environment)
        defer { daemon.stop() }
        // Every widget has its first entry, the sound the server's volume, before the bar starts: the picture
        // waits for nothing but the bar.
        var texts: [String: String] = [:]
        #expect(
            await daemon.waitFor("every widget's first entry") {
                texts = daemon.barTexts("system")
                return widgets.allSatisfy { texts[$0] != nil } && texts["vol"] == "♪ 60%"
            }, "\(texts)\n\(daemon.log.suffix(3000))")
        #expect(texts["net"]?.hasPrefix("E: ") == true && texts["net"] != "E: down", "\(texts)")

        let display = try await VirtualDisplay(width: ShippedConfigScreenshotTests.width)
        let i3 = try ShippedConfigScreenshotTests.startI3(
            "bar {\n    status_command exec widgetd bar --bar system\n    position top\n"
                + "    font pango:DejaVu Sans 10\n}", on: display, daemon: daemon)
        defer { i3.stop() }
        try await ShippedConfigScreenshotTests.screenshot(
            "i3bar-system-kinds", on: display, rows: 20, columns: Self.columns
        ) { i3.log }
        // What the bar showed when the picture was taken, and before (the sound's ♪ among it).
        let shown = daemon.barTexts("system").values.joined()
        #expect(try FontCoverage.missing(in: "DejaVu Sans", shown + texts.values.joined()) == [])
        // i3's log holds i3bar's and `widgetd bar`'s stderr: i3bar's complaints (a status line it cannot parse, a
        // status command that ended) are `ERROR:` lines, `widgetd bar`'s `widgetd: error:`.
        #expect(!i3.log.lowercased().contains("error"), "i3 log:\n\(i3.log)")
    }
}
