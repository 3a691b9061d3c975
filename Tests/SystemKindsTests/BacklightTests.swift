import Foundation
import Kind
import Testing
import Timelines

@testable import SystemKinds

/// The backlight kind on a sysfs-shaped tree: the brightness the hardware has, the device chosen, no backlight as a
/// state. Its push at each backlight uevent is DaemonTests' `DrivenPushedKindsTests`.
@Suite("backlight")
struct BacklightTests {
    static func tree(_ devices: [(String, actual: String, max: String)]) throws -> FakeSystemTree {
        let tree = try FakeSystemTree()
        for (name, actual, maximum) in devices {
            try tree.write("/sys/class/backlight/\(name)/actual_brightness", actual)
            try tree.write("/sys/class/backlight/\(name)/brightness", "1\n")  // asked for, not shown
            try tree.write("/sys/class/backlight/\(name)/max_brightness", maximum)
        }
        return tree
    }

    @Test func theBrightnessIsActualOverMaximum() throws {
        #expect(Backlight(name: "a", actualBrightness: "96000\n", maxBrightness: "120000\n")?.percentage == 80)
        #expect(Backlight(name: "a", actualBrightness: "7\n", maxBrightness: "0\n") == nil, "no range")
        #expect(Backlight(name: "a", actualBrightness: "x", maxBrightness: "10") == nil)
        #expect(Backlight(name: "a", actualBrightness: "12", maxBrightness: "10")?.percentage == 100)
    }

    @Test func theFirstDeviceOrTheNamedOneShows() async throws {
        let tree = try Self.tree([("acpi_video0", "5\n", "10\n"), ("intel_backlight", "96000\n", "120000\n")])
        defer { tree.remove() }
        #expect(try await shown(BacklightKind(files: tree.files)).text == "☀ 50%")
        let named = try await shown(
            BacklightKind(files: tree.files),
            ["device": .string("intel_backlight"), "format": .string("{device} {brightness}/{max} {percentage}")])
        #expect(named.text == "intel_backlight 96000/120000 80%" && named.percentage == 80)
        #expect(try await shown(BacklightKind(files: tree.files), family: .systemSmall).text == "▅ ☀ 50%")
    }

    @Test func noBacklightIsAClearStateNotAnError() async throws {
        let empty = try Self.tree([])
        defer { empty.remove() }
        let none = try await shown(BacklightKind(files: empty.files))
        #expect(none.text == "no backlight" && none.classes == ["absent"])
        #expect(none.tooltip == "no backlight in /sys/class/backlight")
        let tree = try Self.tree([("acpi_video0", "5\n", "10\n")])
        defer { tree.remove() }
        let other = try await shown(BacklightKind(files: tree.files), ["device": .string("intel_backlight")])
        #expect(other.text == "no backlight", "a named device that is not there is not replaced by another")
        #expect(other.tooltip == "no readable backlight named 'intel_backlight'; there are: acpi_video0")
    }
}
