import Foundation
import Kind
import TestSupport
import Testing

@testable import SystemKinds

/// A pushed system kind in the daemon in the test's process (`DrivenDaemon`): the battery and the backlight read from a
/// tree the test writes, pushed by a uevent the test sends to the listener's socket, since the kernel sends none for a
/// sysfs-shaped tree.
@Suite("the daemon on a driven clock: pushed kinds", .waitsOnThreadsOfItsOwn)
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

    /// A battery at 50 % discharging and a backlight at 50 %, in a tree of their own.
    private struct Machine {
        let tree: TemporaryDirectory
        var socket: String { tree.url.path + "/uevent.sock" }
        var battery: String { tree.url.path + "/sys/class/power_supply/BAT0/uevent" }
        var brightness: String { tree.url.path + "/sys/class/backlight/intel_backlight/actual_brightness" }

        init() throws {
            tree = try TemporaryDirectory()
            let root = tree.url.path
            for directory in ["/sys/class/power_supply/BAT0", "/sys/class/backlight/intel_backlight"] {
                try FileManager.default.createDirectory(atPath: root + directory, withIntermediateDirectories: true)
            }
            try writeFile(DrivenPushedKindsTests.uevent(status: "Discharging"), to: battery)
            try writeFile("60000\n", to: brightness)
            // Asked for, not shown.
            try writeFile("1\n", to: root + "/sys/class/backlight/intel_backlight/brightness")
            try writeFile("120000\n", to: root + "/sys/class/backlight/intel_backlight/max_brightness")
        }

        /// A daemon showing both, their kinds on one listener as the daemon's shared one is: a uevent one of them
        /// shows was read, and told to every widget of its subsystem.
        func daemon() throws -> DrivenDaemon {
            let files = SystemFiles(root: tree.url.path)
            let listener = UeventListener(testPath: socket)
            let driven = try DrivenDaemon(
                config: "widgets:\n  bat:\n    kind: battery\n    output: [plain]\n"
                    + "  light:\n    kind: backlight\n    output: [plain]\n",
                kinds: [
                    BatteryKind(files: files, listener: listener), BacklightKind(files: files, listener: listener),
                ])
            #expect(
                driven.turns(until: "both first readings") {
                    driven.read("bat.plain") == "BAT 50% 05:00\n" && driven.read("light.plain") == "☀ 50%\n"
                }, "\(driven.log)")
            #expect(driven.turns(until: "the uevent socket") { FileManager.default.fileExists(atPath: socket) })
            return driven
        }

        func send(_ uevent: String) {
            let sent = sendDatagram(uevent, to: socket)
            #expect(sent == uevent.utf8.count, "sendto: \(String(cString: strerror(errno)))")
        }
    }

    /// A battery session reads again at a uevent of the power supply, and another subsystem's uevent is not its
    /// business: the backlight's, which the backlight shows was read, leaves the battery as it was, though its file
    /// changed.
    @Test func aBatterySessionPushesAgainWhenAPowerSupplyUeventArrives() throws {
        let machine = try Machine()
        defer { machine.tree.remove() }
        let driven = try machine.daemon()
        try writeFile(Self.uevent(status: "Charging"), to: machine.battery)
        try writeFile("90000\n", to: machine.brightness)
        machine.send("change@/devices/backlight/intel_backlight\0SUBSYSTEM=backlight\0")
        #expect(driven.turns(until: "the backlight's uevent read") { driven.read("light.plain") == "☀ 75%\n" })
        // A push the same uevent caused would have come with the backlight's, or a moment after it.
        driven.turn(timeout: .milliseconds(200))
        #expect(driven.read("bat.plain") == "BAT 50% 05:00\n", "the battery read again at a backlight uevent")
        machine.send("change@/devices/power_supply/BAT0\0SUBSYSTEM=power_supply\0")
        #expect(
            driven.turns(until: "the pushed battery") { driven.read("bat.plain") == "CHR 50% 05:00\n" },
            "\(driven.log)")
    }

    /// A backlight session reads again at a backlight uevent, not at a power supply's: the battery shows that one was
    /// read while the backlight stays as it was, though its brightness changed.
    @Test func aBacklightSessionPushesAgainWhenABacklightUeventArrives() throws {
        let machine = try Machine()
        defer { machine.tree.remove() }
        let driven = try machine.daemon()
        try writeFile("90000\n", to: machine.brightness)
        try writeFile(Self.uevent(status: "Charging"), to: machine.battery)
        machine.send("change@/devices/power_supply/AC\0SUBSYSTEM=power_supply\0")
        #expect(driven.turns(until: "the power supply's uevent read") { driven.read("bat.plain") == "CHR 50% 05:00\n" })
        // A push the same uevent caused would have come with the battery's, or a moment after it.
        driven.turn(timeout: .milliseconds(200))
        #expect(driven.read("light.plain") == "☀ 50%\n", "the backlight read again at a power supply uevent")
        machine.send("change@/devices/pci0000:00/backlight/intel_backlight\0SUBSYSTEM=backlight\0")
        #expect(
            driven.turns(until: "the pushed backlight") { driven.read("light.plain") == "☀ 75%\n" }, "\(driven.log)")
    }
}
