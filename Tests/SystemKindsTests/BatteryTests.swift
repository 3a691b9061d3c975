import Foundation
import Kind
import TestSupport
import Testing
import TimeZones
import Timelines

@testable import SystemKinds

/// The battery kind's pure parts — uevent messages, power_supply uevent files, batteries combined, the countdown
/// timeline — and the kind on a sysfs-shaped tree. Its push at each power supply uevent is DaemonTests'
/// `DrivenPushedKindsTests`.
@Suite("battery")
struct BatteryTests {
    static let discharging = """
        POWER_SUPPLY_NAME=BAT0
        POWER_SUPPLY_TYPE=Battery
        POWER_SUPPLY_STATUS=Discharging
        POWER_SUPPLY_PRESENT=1
        POWER_SUPPLY_POWER_NOW=11000000
        POWER_SUPPLY_ENERGY_FULL_DESIGN=110000000
        POWER_SUPPLY_ENERGY_FULL=100000000
        POWER_SUPPLY_ENERGY_NOW=50000000
        POWER_SUPPLY_CAPACITY=50

        """

    @Test func aKernelUeventParsesIntoActionPathAndFields() throws {
        let bytes =
            Array(
                "change@/devices/LNXSYSTM:00/PNP0C0A:00/power_supply/BAT0\0ACTION=change\0SUBSYSTEM=power_supply\0"
                    .utf8) + Array("POWER_SUPPLY_STATUS=Charging\0noequals\0".utf8)
        let message = try #require(UeventMessage(bytes: bytes))
        #expect(message.action == "change")
        #expect(message.devicePath == "/devices/LNXSYSTM:00/PNP0C0A:00/power_supply/BAT0")
        #expect(message.subsystem == "power_supply")
        #expect(message.properties["POWER_SUPPLY_STATUS"] == "Charging" && message.properties.count == 3)
    }

    @Test(arguments: [
        "libudev\0\u{1}\u{2}binary", "change /devices/x\0SUBSYSTEM=power_supply\0", "@/devices/x\0", "change@x\0", "",
    ])
    func whatIsNoKernelUeventIsRefused(_ text: String) {
        #expect(UeventMessage(bytes: Array(text.utf8)) == nil)
    }

    @Test func aMessageLongerThanTheLimitIsRefusedAndFieldsAreBounded() {
        let long = Array("change@/devices/x\0".utf8) + [UInt8](repeating: 65, count: UeventMessage.byteLimit)
        #expect(UeventMessage(bytes: long) == nil)
        let many = "add@/devices/x\0" + (0..<1000).map { "K\($0)=v\0" }.joined()
        #expect(UeventMessage(bytes: Array(many.utf8))?.properties.count == UeventMessage.fieldLimit)
    }

    @Test func aPowerSupplyUeventFileIsABattery() throws {
        let battery = try #require(
            Battery(name: "BAT0", properties: UeventMessage.properties(ofUeventFile: Self.discharging)))
        #expect(battery.state == .discharging && battery.percentage == 50)
        #expect(battery.secondsRemaining.map { Int($0) } == 16363, "50 Wh at 11 W")
        let charging = Self.discharging.replacingOccurrences(of: "Discharging", with: "Charging")
        let filling = try #require(Battery(name: "BAT0", properties: UeventMessage.properties(ofUeventFile: charging)))
        #expect(filling.secondsRemaining.map { Int($0) } == 16363, "50 Wh to go at 11 W")
    }

    @Test func aChargeReportingBatteryIsConvertedWithItsVoltage() throws {
        let text = """
            POWER_SUPPLY_TYPE=Battery
            POWER_SUPPLY_STATUS=Discharging
            POWER_SUPPLY_VOLTAGE_NOW=10000000
            POWER_SUPPLY_CURRENT_NOW=1000000
            POWER_SUPPLY_CHARGE_FULL=4000000
            POWER_SUPPLY_CHARGE_NOW=1000000
            """
        let battery = try #require(Battery(name: "BAT1", properties: UeventMessage.properties(ofUeventFile: text)))
        #expect(battery.energyNow == 10_000_000 && battery.energyFull == 40_000_000 && battery.power == 10_000_000)
        #expect(battery.percentage == 25 && battery.secondsRemaining == 3600)
    }

    @Test func mainsAndPeripheralBatteriesAreNoSystemBattery() {
        #expect(Battery(name: "AC", properties: ["POWER_SUPPLY_TYPE": "Mains", "POWER_SUPPLY_ONLINE": "1"]) == nil)
        #expect(
            Battery(
                name: "hidpp_battery_0", properties: ["POWER_SUPPLY_TYPE": "Battery", "POWER_SUPPLY_SCOPE": "Device"])
                == nil)
    }

    @Test func severalBatteriesCombineByEnergy() throws {
        let small = Battery(name: "BAT0", state: .discharging, energyNow: 2, energyFull: 20, power: 5)
        let large = Battery(name: "BAT1", state: .full, energyNow: 80, energyFull: 80, power: 0)
        let both = try #require(Battery.combined([small, large]))
        #expect(both.name == "BAT0+BAT1" && both.state == .discharging)
        #expect(both.percentage == 82, "82 of 100, not the mean of 10 % and 100 %")
        #expect(Battery.combined([]) == nil)
        // One charging at 11 W while the other discharges at 5 W: the pack gains 6 W.
        let charging = Battery(name: "BAT0", state: .charging, energyNow: 50, energyFull: 100, power: 11)
        let draining = Battery(name: "BAT1", state: .discharging, energyNow: 2, energyFull: 20, power: 5)
        let mixed = try #require(Battery.combined([charging, draining]))
        #expect(mixed.state == .charging && mixed.power == 6)
        var drainingFaster = draining
        drainingFaster.power = 15
        let losing = try #require(Battery.combined([charging, drainingFaster]))
        #expect(losing.state == .discharging && losing.power == 4)
    }

    @Test func theRemainingTimeCountsDownAtEachMinuteItCrosses() throws {
        let battery = try #require(
            Battery(name: "BAT0", properties: UeventMessage.properties(ofUeventFile: Self.discharging)))
        let now = Date(timeIntervalSince1970: 1_000_000)  // 13:46:40 UTC
        let presentation = BatteryTimeline(
            format: PlaceholderFormat("{status} {percentage} {remaining} {emptytime}"), warning: 20, critical: 10,
            family: .accessoryInline, timeZone: Zone(fixedOffset: 0))
        let timeline = presentation.timeline(battery, at: now)
        #expect(timeline.policy == .never, "pushed: the next uevent, not a reload, replaces it")
        #expect(timeline.entries.count == BatteryTimeline.horizonMinutes + 1)
        #expect(timeline.entries[0].date == now && timeline.entries[0].content.text == "BAT 50% 04:32 18:19")
        // 16,363.6 s left: the shown minutes drop 43.6 s from now, then every 60 s.
        let first = timeline.entries[1].date.timeIntervalSince(now)
        #expect(abs(first - (50.0 / 11 * 3600).truncatingRemainder(dividingBy: 60)) < 0.001)
        #expect(timeline.entries[1].content.text == "BAT 50% 04:31 18:19")
        #expect(timeline.entries[2].date.timeIntervalSince(timeline.entries[1].date) == 60)
        #expect(timeline.entries[30].content.text == "BAT 50% 04:02 18:19")
    }

    @Test func aBatteryNearEmptyCountsDownToZeroAndStopsWhenEmpty() {
        let battery = Battery(
            name: "BAT0", state: .discharging, energyNow: 1_000_000, energyFull: 100_000_000,
            power: 24_000_000)  // 150 s left
        let presentation = BatteryTimeline(
            format: PlaceholderFormat("{remaining}"), warning: 20, critical: 10, family: .accessoryInline,
            timeZone: Zone(fixedOffset: 0))
        let texts = presentation.timeline(battery, at: Date(timeIntervalSince1970: 0)).entries.map(\.content.text)
        #expect(texts == ["00:02", "00:01", "00:00"])
    }

    @Test func lowAndNotChargingIsCriticalWhileChargingIsNot() {
        let presentation = BatteryTimeline(
            format: PlaceholderFormat(BatteryKind.defaultFormat), warning: 20, critical: 10, family: .systemSmall,
            timeZone: Zone(fixedOffset: 0))
        let low = Battery(name: "BAT0", state: .discharging, capacity: 8)
        let shown = presentation.content(low, remaining: nil, at: Date())
        #expect(shown.text == "▂ BAT 8%", "no power figure: no remaining time, and no space left for it")
        #expect(shown.state == .urgent && shown.classes == ["critical"] && shown.foreground == Thresholds.criticalColor)
        let warning = presentation.content(
            Battery(name: "BAT0", state: .discharging, capacity: 15), remaining: nil,
            at: Date())
        #expect(warning.classes == ["warning"] && warning.state == .normal)
        var charging = low
        charging.state = .charging
        #expect(presentation.content(charging, remaining: nil, at: Date()).classes.isEmpty)
        #expect(
            presentation.content(Battery(name: "BAT0", state: .full, capacity: 100), remaining: nil, at: Date()).text
                == "█ FULL 100%")
    }

    @Test func noBatteryIsAClearStateNotAnError() async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        try tree.write("/sys/class/power_supply/AC/uevent", "POWER_SUPPLY_TYPE=Mains\nPOWER_SUPPLY_ONLINE=1\n")
        let none = try await shown(BatteryKind(files: tree.files))
        #expect(none.text == "no battery" && none.classes == ["absent"] && none.state == .normal)
        #expect(none.tooltip == "no battery in /sys/class/power_supply")
        try tree.write("/sys/class/power_supply/BAT0/uevent", Self.discharging)
        let other = try await shown(BatteryKind(files: tree.files), ["battery": .string("BAT1")])
        #expect(other.text == "no battery" && other.tooltip == "no battery named 'BAT1'; there are: BAT0")
        #expect(try await shown(BatteryKind(files: tree.files)).text == "BAT 50% 04:32")
    }

    @Test func theListenersTimeoutIsRoundedUpSoItNeverWakesJustBeforeADeadline() {
        #expect(UeventListener.pollMilliseconds(.nanoseconds(1)) == 1)
        #expect(UeventListener.pollMilliseconds(.milliseconds(1500)) == 1500)
        #expect(UeventListener.pollMilliseconds(.seconds(179) + .nanoseconds(999_999_999)) == 180_000)
        #expect(UeventListener.pollMilliseconds(.zero - .seconds(2)) == 0)
        #expect(UeventListener.pollMilliseconds(.seconds(Int64.max / 2)) == .max)
    }
}
