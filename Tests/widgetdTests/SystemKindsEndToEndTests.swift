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

/// The battery kind in a running daemon: pushed by a uevent, which a test sends to the socket
/// `WIDGETD_UEVENT_SOCKET` names since the kernel sends none for a sysfs-shaped tree.
@Suite("battery through the daemon")
struct BatteryEndToEndTests {
    static func uevent(status: String) -> String {
        "POWER_SUPPLY_TYPE=Battery\nPOWER_SUPPLY_STATUS=\(status)\nPOWER_SUPPLY_POWER_NOW=10000000\n"
            + "POWER_SUPPLY_ENERGY_FULL=100000000\nPOWER_SUPPLY_ENERGY_NOW=50000000\n"
    }

    @Test func aBatteryThatStartsChargingIsShownWithinADeadlineOfItsUevent() async throws {
        let tree = try TemporaryDirectory()
        defer { tree.remove() }
        try FileManager.default.createDirectory(
            atPath: tree.url.path + "/sys/class/power_supply/BAT0", withIntermediateDirectories: true)
        let batteryFile = tree.url.path + "/sys/class/power_supply/BAT0/uevent"
        try writeFile(Self.uevent(status: "Discharging"), to: batteryFile)
        let socketPath = tree.url.path + "/uevent.sock"
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  bat:\n    kind: battery\n    output: [plain]\n",
            extraEnvironment: ["WIDGETD_SYSTEM_ROOT": tree.url.path, "WIDGETD_UEVENT_SOCKET": socketPath])
        #expect(await daemon.waitFor("the discharging battery") { daemon.read("bat.plain") == "BAT 50% 05:00\n" })
        #expect(await daemon.waitFor("the uevent socket") { FileManager.default.fileExists(atPath: socketPath) })
        try writeFile(Self.uevent(status: "Charging"), to: batteryFile)
        let sent = ContinuousClock.now
        try sendUevent("change@/devices/power_supply/BAT0\0ACTION=change\0SUBSYSTEM=power_supply\0", to: socketPath)
        #expect(
            await daemon.waitFor("the charging battery", timeout: .seconds(5)) {
                daemon.read("bat.plain") == "CHR 50% 05:00\n"
            }, "\(daemon.read("bat.plain") ?? "no file")\n\(daemon.log)")
        // The safety re-read is three minutes away: only the uevent can have shown it within one (a loaded machine may
        // leave this test's task unscheduled for seconds, so the bound is not the wait's).
        #expect(ContinuousClock.now - sent < .seconds(60))
    }

    /// Sends `text` to the daemon's uevent socket, as the kernel would.
    func sendUevent(_ text: String, to path: String) throws {
        let sent = sendDatagram(text, to: path)
        #expect(sent == text.utf8.count, "sendto: \(String(cString: strerror(errno)))")
    }
}

/// A sampled kind in a running daemon: its first entry, then the next sample an `interval:` later, read from a tree
/// the test changes in between.
@Suite("sampled kinds through the daemon")
struct SampledKindsEndToEndTests {
    @Test func theNextSampleAnIntervalLaterShowsTheIntervalsUsage() async throws {
        let tree = try TemporaryDirectory()
        defer { tree.remove() }
        try FileManager.default.createDirectory(
            at: tree.url.appendingPathComponent("proc"), withIntermediateDirectories: true)
        let stat = tree.url.path + "/proc/stat"
        try writeFile("cpu  30 0 0 10 0 0 0 0 0 0\ncpu0 30 0 0 10 0 0 0 0 0 0\n", to: stat)
        _ = try tree.write("proc/loadavg", "0.25 0.50 0.75 1/100 4242\n")
        let daemon = try DaemonUnderTest(
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
                """,
            extraEnvironment: ["WIDGETD_SYSTEM_ROOT": tree.url.path])
        #expect(
            await daemon.waitFor("usage since boot") { daemon.read("cpu.plain") == "75% 75%\n" },
            "\(daemon.read("cpu.plain") ?? "no file")\n\(daemon.log)")
        #expect(await daemon.waitFor("the load") { daemon.read("load.plain") == "0.25\n" })
        // A quarter of the next 100 ticks busy: only a sample that took the first as its base shows 25 %.
        try writeFile("cpu  55 0 0 85 0 0 0 0 0 0\ncpu0 55 0 0 85 0 0 0 0 0 0\n", to: stat)
        #expect(
            await daemon.waitFor("the interval's usage") { daemon.read("cpu.plain") == "25% 25%\n" },
            "\(daemon.read("cpu.plain") ?? "no file")\n\(daemon.log)")
        #expect(
            await daemon.waitFor("waybar's percentage") {
                daemon.read("cpu.waybar")?.contains(#""percentage":25"#) == true
            }, "waybar's percentage is the usage: \(daemon.read("cpu.waybar") ?? "no file")")
        // Every sample came from the daemon itself: nothing was forked, so no line of it speaks of a command.
        #expect(!daemon.log.contains("command"), "\(daemon.log)")
    }

    /// A reading of the system is read again at once after a restart: none is kept under $XDG_STATE_HOME, neither at
    /// each sample (a disk write every few seconds on a laptop) nor at the stop, while a quote beside it is.
    @Test func aSampleIsNotKeptForTheNextRunAQuoteIs() async throws {
        let system = try FakeLoadAverage()
        defer { system.remove() }
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  load:\n    kind: load\n    interval: 1s\n  quote:\n    kind: quotes\n",
            extraEnvironment: system.environment)
        let kept = daemon.directory.url.path + "/state/widgetd/entries/"
        #expect(await daemon.waitFor("the quote kept") { FileManager.default.fileExists(atPath: kept + "quote.json") })
        #expect(
            await daemon.waitFor("a second sample") {
                daemon.log.contains("load: shows") && daemon.read("load.plain") == "0.25\n"
            })
        try system.set("1.50")
        #expect(await daemon.waitFor("the next sample") { daemon.read("load.plain") == "1.50\n" })
        #expect(!FileManager.default.fileExists(atPath: kept + "load.json"), "kept at a sample")
        daemon.stop()
        #expect(!FileManager.default.fileExists(atPath: kept + "load.json"), "kept at the stop")
        #expect(FileManager.default.fileExists(atPath: kept + "quote.json"))
    }

    /// As i3status shows a module's text: whole, however long, unless the widget names a family, which cuts it to the
    /// family's width. (i3status's memory module by default is 21 cells, one over accessoryInline's 20.)
    @Test func aSystemWidgetWithoutAFamilyShowsItsTextWholeANamedFamilyCutsIt() async throws {
        let system = try FakeLoadAverage()
        defer { system.remove() }
        let format = "load {1min} {5min} {15min} over the last quarter hour"
        let daemon = try DaemonUnderTest(
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
                """,
            extraEnvironment: system.environment)
        let text = "load 0.25 0.50 0.75 over the last quarter hour"
        #expect(
            await daemon.waitFor("the whole text") { daemon.read("whole.plain") == text + "\n" },
            "\(daemon.read("whole.plain") ?? "no file")\n\(daemon.log)")
        #expect(
            daemon.read("whole.i3bar")?.contains(#""full_text":"\#(text)""#) == true,
            "\(daemon.read("whole.i3bar") ?? "")")
        #expect(
            await daemon.waitFor("the cut text") { daemon.read("cut.plain") == "load 0.25 0.50 0.75…\n" },
            "\(daemon.read("cut.plain") ?? "no file")")
    }
}
