import Foundation
import Kind
import Testing
import Timelines

@testable import SystemKinds

/// The backlight kind on a sysfs-shaped tree: the brightness the hardware has, the device chosen, no backlight as a
/// state, and a push at each backlight uevent.
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

    @Test func aBacklightSessionPushesAgainWhenABacklightUeventArrives() async throws {
        let tree = try Self.tree([("intel_backlight", "60000\n", "120000\n")])
        defer { tree.remove() }
        let socketPath = tree.root + "/uevent.sock"
        let kind = BacklightKind(files: tree.files, listener: UeventListener(testPath: socketPath))
        let texts = Texts()
        let session = try kind.startSession(for: configuration(kind), in: context()) { update in
            if case .timeline(let timeline) = update { texts.append(timeline.entries[0].content.text) }
        }
        defer { session.stop() }
        #expect(texts.all == ["☀ 50%"])
        try tree.write("/sys/class/backlight/intel_backlight/actual_brightness", "90000\n")
        try sendUevent("change@/devices/power_supply/AC\0SUBSYSTEM=power_supply\0", to: socketPath)
        try sendUevent("change@/devices/pci0000:00/backlight/intel_backlight\0SUBSYSTEM=backlight\0", to: socketPath)
        try await waitUntil("the pushed timeline") { texts.all.count >= 2 }
        #expect(texts.all == ["☀ 50%", "☀ 75%"])
    }
}
