import Foundation
import Kind
import TestSupport
import Testing

@testable import SystemKinds

/// The temperature kind beside i3status's `cpu_temperature` module on one sysfs-shaped tree (i3status's `path` names the
/// tree's file; this machine has no sensor of its own): the same sensor shows the same whole degrees.
@Suite("temperature against i3status")
struct TemperatureI3statusTests {
    @Test(arguments: ["41000", "45600", "77500", "99999", "100000"])
    func theSameDegreesAsI3status(millidegrees: String) async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        try tree.write("/sys/class/hwmon/hwmon0/name", "coretemp\n")
        try tree.write("/sys/class/hwmon/hwmon0/temp1_input", millidegrees + "\n")
        let config = tree.root + "/i3status.conf"
        try """
        general {
            output_format = "none"
            interval = 1
        }
        order += "cpu_temperature 0"
        cpu_temperature 0 {
            format = "%degrees"
            path = "\(tree.root)/sys/class/hwmon/hwmon0/temp1_input"
        }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let theirs = try await firstI3statusLine(config: config)
        let ours = try await shown(TemperatureKind(files: tree.files), ["format": .string("{degrees}")]).text
        #expect(ours == theirs, "\(millidegrees) m°C: ours \(ours), i3status's \(theirs)")
    }
}
