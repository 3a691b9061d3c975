import Foundation
import Kind
import TestSupport
import Testing

@testable import SystemKinds

/// The battery kind beside i3status's `battery` module on one sysfs-shaped tree (i3status's `path` names the tree's
/// uevent files; this machine has no battery of its own): the placeholders i3status has, translated as
/// `widgetd import i3status` translates them, show the same text. i3status is set to the level widgetd shows (against
/// the energy when last full, whole percent: `last_full_capacity` and `integer_battery_capacity`).
@Suite("battery against i3status")
struct BatteryI3statusTests {
    static func uevent(_ name: String, status: String, powerNow: Int, energyFull: Int, energyNow: Int) -> String {
        """
        POWER_SUPPLY_NAME=\(name)
        POWER_SUPPLY_TYPE=Battery
        POWER_SUPPLY_STATUS=\(status)
        POWER_SUPPLY_PRESENT=1
        POWER_SUPPLY_POWER_NOW=\(powerNow)
        POWER_SUPPLY_ENERGY_FULL_DESIGN=110000000
        POWER_SUPPLY_ENERGY_FULL=\(energyFull)
        POWER_SUPPLY_ENERGY_NOW=\(energyNow)

        """
    }

    /// Discharging, charging and full, and two batteries combined (i3status's `all`): each the same as i3status's line.
    /// `{consumption}` is compared as a number: i3status writes `11.00W`, widgetd `11.00 W`.
    @Test(arguments: [
        ("0", ["Discharging"]), ("0", ["Charging"]), ("0", ["Full"]), ("all", ["Discharging", "Discharging"]),
        ("all", ["Charging", "Discharging"]),
    ])
    func theSameTextAsI3statusOnTheSameBatteries(module: String, states: [String]) async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        for (index, state) in states.enumerated() {
            let name = "BAT\(index)"
            try tree.write(
                "/sys/class/power_supply/\(name)/uevent",
                Self.uevent(
                    name, status: state, powerNow: 11_000_000 - index * 6_000_000,
                    energyFull: 100_000_000 - index * 80_000_000,
                    energyNow: state == "Full" ? 100_000_000 : 50_000_000 - index * 48_000_000))
        }
        let config = tree.root + "/i3status.conf"
        try """
        general {
            output_format = "none"
            interval = 1
            separator = "\\t"
        }
        order += "battery \(module)"
        battery \(module) {
            format = "%status\\t%percentage\\t%remaining\\t%consumption"
            path = "\(tree.root)/sys/class/power_supply/BAT%d/uevent"
            last_full_capacity = true
            integer_battery_capacity = true
        }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let theirs = try await firstI3statusLine(config: config).components(separatedBy: "\t")
        let ours = try await shown(
            BatteryKind(files: tree.files),
            [
                "format": .string("{status}\t{percentage}\t{remaining}\t{consumption}"),
                "battery": module == "all" ? nil : .string("BAT\(module)"),
            ].compactMapValues { $0 }
        ).text.components(separatedBy: "\t")
        try #require(ours.count == 4 && theirs.count == 4, "ours \(ours), i3status's \(theirs)")
        #expect(ours[0..<3] == theirs[0..<3], "ours \(ours), i3status's \(theirs)")
        let watts = (
            ours[3].replacingOccurrences(of: " W", with: ""), theirs[3].replacingOccurrences(of: "W", with: "")
        )
        #expect(watts.0 == watts.1 && !watts.0.isEmpty, "ours \(ours), i3status's \(theirs)")
    }
}
