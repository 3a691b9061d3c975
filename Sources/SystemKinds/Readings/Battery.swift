import Basics
import FoundationEssentials

/// One battery, or several combined, from the `POWER_SUPPLY_*` fields of its sysfs `uevent` file.
public struct Battery: Sendable, Hashable {
    /// The kernel's word for what the battery does (`POWER_SUPPLY_STATUS`).
    public enum State: String, Sendable, Hashable {
        case charging = "charging"
        case discharging = "discharging"
        case full = "full"
        case notCharging = "not charging"
        case unknown = "unknown"

        init(kernelStatus: String?) {
            switch kernelStatus {
            case "Charging": self = .charging
            case "Discharging": self = .discharging
            case "Full": self = .full
            case "Not charging": self = .notCharging
            default: self = .unknown
            }
        }

        /// i3status's default `status_chr`, `status_bat`, `status_full`, `status_idle` and `status_unk`.
        public var i3statusLabel: String {
            switch self {
            case .charging: "CHR"
            case .discharging: "BAT"
            case .full: "FULL"
            case .notCharging: "IDLE"
            case .unknown: "UNK"
            }
        }
    }

    /// `BAT0`, or the names of the batteries combined, joined by `+`.
    public var name: String
    public var state: State
    /// Stored energy now and when last full, in µWh (or µAh × V, from charge and voltage); nil when the driver
    /// reports only `CAPACITY`.
    public var energyNow: Double?
    public var energyFull: Double?
    /// What flows in or out now, in µW; nil or 0 when the driver does not say.
    public var power: Double?
    /// The driver's own percentage (`POWER_SUPPLY_CAPACITY`), used when there is no energy to divide.
    public var capacity: Double?

    public init(
        name: String, state: State, energyNow: Double? = nil, energyFull: Double? = nil, power: Double? = nil,
        capacity: Double? = nil
    ) {
        self.name = name
        self.state = state
        self.energyNow = energyNow
        self.energyFull = energyFull
        self.power = power
        self.capacity = capacity
    }

    /// The battery these fields describe, or nil when they are not a system battery's (a mains adapter, a mouse's
    /// battery, which the kernel marks `SCOPE=Device`). Charge-reporting drivers (`CHARGE_NOW`, µAh) are converted
    /// to energy with `VOLTAGE_NOW`, so batteries of both kinds combine.
    public init?(name: String, properties: [String: String]) {
        guard properties["POWER_SUPPLY_TYPE"] == "Battery", properties["POWER_SUPPLY_SCOPE"] != "Device" else {
            return nil
        }
        func number(_ key: String) -> Double? {
            properties["POWER_SUPPLY_" + key].flatMap { Double($0.trimmingWhitespace()) }.map { abs($0) }
        }
        let volts = number("VOLTAGE_NOW").map { $0 / 1_000_000 }
        func energy(_ energyKey: String, _ chargeKey: String) -> Double? {
            number(energyKey) ?? volts.flatMap { volts in number(chargeKey).map { $0 * volts } }
        }
        self.init(
            name: name, state: State(kernelStatus: properties["POWER_SUPPLY_STATUS"]),
            energyNow: energy("ENERGY_NOW", "CHARGE_NOW"), energyFull: energy("ENERGY_FULL", "CHARGE_FULL"),
            power: number("POWER_NOW") ?? volts.flatMap { volts in number("CURRENT_NOW").map { $0 * volts } },
            capacity: number("CAPACITY"))
    }

    /// Stored energy as a percentage of the energy when last full (the kernel's `CAPACITY`, as waybar shows it).
    public var percentage: Double? {
        if let energyNow, let energyFull, energyFull > 0 { return min(100, energyNow / energyFull * 100) }
        return capacity.map { min(100, $0) }
    }

    /// Seconds until empty (discharging) or full (charging) at the power drawn now; nil when the driver reports no
    /// power or no energy, or the battery does neither.
    public var secondsRemaining: Double? {
        guard let power, power > 0, let energyNow else { return nil }
        switch state {
        case .discharging: return energyNow / power * 3600
        case .charging: return energyFull.map { max(0, $0 - energyNow) / power * 3600 }
        default: return nil
        }
    }

    /// Several batteries as one, by energy: the stored energies and powers add up, so a nearly empty small battery
    /// beside a full large one shows nearly full. Charging when any charges, discharging when any discharges, full
    /// when all are; when one charges while another discharges, what flows is the difference, in the larger's direction,
    /// as i3status's `all` counts it, so the time left is at the rate the pack gains or loses energy. Those without
    /// energy figures count by their capacity alone when none has energy.
    public static func combined(_ batteries: [Battery]) -> Battery? {
        guard let first = batteries.first else { return nil }
        guard batteries.count > 1 else { return first }
        let states = Set(batteries.map(\.state))
        var state: State =
            states.contains(.charging)
            ? .charging
            : states.contains(.discharging)
                ? .discharging : states == [.full] ? .full : states.contains(.notCharging) ? .notCharging : .unknown
        var power = batteries.compactMap(\.power).reduce(0, +)
        if states.isSuperset(of: [.charging, .discharging]) {
            let flow = batteries.reduce(0.0) { flow, battery in
                switch battery.state {
                case .charging: flow + (battery.power ?? 0)
                case .discharging: flow - (battery.power ?? 0)
                default: flow
                }
            }
            state = flow > 0 ? .charging : .discharging
            power = abs(flow)
        }
        let withEnergy = batteries.filter { $0.energyNow != nil && $0.energyFull != nil }
        let capacities = batteries.compactMap(\.capacity)
        return Battery(
            name: batteries.map(\.name).joined(separator: "+"), state: state,
            energyNow: withEnergy.isEmpty ? nil : withEnergy.compactMap(\.energyNow).reduce(0, +),
            energyFull: withEnergy.isEmpty ? nil : withEnergy.compactMap(\.energyFull).reduce(0, +),
            power: power,
            capacity: capacities.isEmpty ? nil : capacities.reduce(0, +) / Double(capacities.count))
    }
}
