import Foundation
import Kind
import TestSupport
import Testing

@testable import SystemKinds

/// A pushed system kind in the daemon in the test's process (`DrivenDaemon`): the battery read from a tree the test
/// writes, pushed by a uevent the test sends to the listener's socket, since the kernel sends none for a sysfs-shaped
/// tree.
@Suite("the daemon on a driven clock: pushed kinds")
struct DrivenPushedKindsTests {
    static func uevent(status: String) -> String {
        "POWER_SUPPLY_TYPE=Battery\nPOWER_SUPPLY_STATUS=\(status)\nPOWER_SUPPLY_POWER_NOW=10000000\n"
            + "POWER_SUPPLY_ENERGY_FULL=100000000\nPOWER_SUPPLY_ENERGY_NOW=50000000\n"
    }

    /// The safety re-read is three minutes away and the daemon's clock stands still: only the uevent can show it.
    @Test func aBatteryThatStartsChargingIsShownOnItsUevent() throws {
        let tree = try TemporaryDirectory()
        defer { tree.remove() }
        try FileManager.default.createDirectory(
            atPath: tree.url.path + "/sys/class/power_supply/BAT0", withIntermediateDirectories: true)
        let batteryFile = tree.url.path + "/sys/class/power_supply/BAT0/uevent"
        try writeFile(Self.uevent(status: "Discharging"), to: batteryFile)
        let socketPath = tree.url.path + "/uevent.sock"
        let battery = BatteryKind(
            files: SystemFiles(root: tree.url.path), listener: UeventListener(testPath: socketPath))
        let driven = try DrivenDaemon(
            config: "widgets:\n  bat:\n    kind: battery\n    output: [plain]\n", kinds: [battery])
        #expect(
            driven.turns(until: "the discharging battery") { driven.read("bat.plain") == "BAT 50% 05:00\n" },
            "\(driven.read("bat.plain") ?? "no file")\n\(driven.log)")
        #expect(driven.turns(until: "the uevent socket") { FileManager.default.fileExists(atPath: socketPath) })
        try writeFile(Self.uevent(status: "Charging"), to: batteryFile)
        let sent = sendDatagram(
            "change@/devices/power_supply/BAT0\0ACTION=change\0SUBSYSTEM=power_supply\0", to: socketPath)
        #expect(sent > 0, "sendto: \(String(cString: strerror(errno)))")
        #expect(
            driven.turns(until: "the charging battery") { driven.read("bat.plain") == "CHR 50% 05:00\n" },
            "\(driven.read("bat.plain") ?? "no file")\n\(driven.log)")
    }
}
