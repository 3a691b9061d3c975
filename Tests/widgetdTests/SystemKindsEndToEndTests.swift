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
