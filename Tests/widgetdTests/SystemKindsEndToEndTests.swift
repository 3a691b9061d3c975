import Foundation
import TestSupport
import Testing

/// The system kinds through the built binary: `WIDGETD_SYSTEM_ROOT` moves /proc and /sys for tests, `preview`
/// renders a sample in each family, and `check` warns of a placeholder the kind does not know.
@Suite("system kinds through the binary")
struct SystemKindsEndToEndTests {
    @Test func previewReadsTheTreeWidgetdSystemRootNames() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("proc"), withIntermediateDirectories: true)
        _ = try directory.write("proc/stat", "cpu  30 0 0 10 0 0 0 0 0 0\ncpu0 30 0 0 10 0 0 0 0 0 0\n")
        _ = try directory.write("proc/loadavg", "0.25 0.50 0.75 1/100 4242\n")
        let environment = ["WIDGETD_SYSTEM_ROOT": directory.url.path]
        let cpu = try runWidgetd(["preview", "cpu"], environment: environment)
        #expect(cpu.status == 0 && cpu.stdout == "75%\n", "\(cpu.stdout)\(cpu.stderr)")
        let small = try runWidgetd(["preview", "load", "--family", "systemSmall"], environment: environment)
        #expect(small.stdout == "▃ 0.25\n", "a quarter of the one core's load: \(small.stdout)\(small.stderr)")
        let noSensor = try runWidgetd(["preview", "temperature"], environment: environment)
        #expect(noSensor.status == 0 && noSensor.stdout == "no sensor\n", "\(noSensor.stdout)\(noSensor.stderr)")
    }

    @Test func checkWarnsOfAnUnknownPlaceholderAtTheFormat() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try directory.write(
            "widgets.yaml",
            "widgets:\n  mem:\n    kind: memory\n    interval: 10s\n    intent: {format: \"{used} {avail}\"}\n")
        let result = try runWidgetd(["check", "--config", config])
        #expect(result.status == 0)
        #expect(
            result.stdout.contains(
                "widgets.yaml:5:22: warning: widget 'mem': unknown placeholder '{avail}' in 'format'")
                || result.stderr.contains("widgets.yaml:5:22: warning: widget 'mem': unknown placeholder '{avail}'"),
            "\(result.stdout)\(result.stderr)")
    }
}
