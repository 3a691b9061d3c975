/// A temperature sensor: a thermal zone (`/sys/class/thermal/thermal_zoneN`) or an hwmon input
/// (`/sys/class/hwmon/hwmonN/tempM_input`).
public struct TemperatureSensor: Sendable, Hashable {
    /// What `sensor:` matches: a thermal zone's `type` (`x86_pkg_temp`, `acpitz`), an hwmon chip's `name`
    /// (`coretemp`), its input's label (`Package id 0`), or both as `name/label`.
    public var names: [String]
    /// Degrees Celsius (the files hold thousandths).
    public var celsius: Double

    public init(names: [String], celsius: Double) {
        self.names = names
        self.celsius = celsius
    }

    /// The name shown for it: the first, the most telling (a zone's type, an input's label).
    public var displayName: String { names.first ?? "" }

    /// Reads a `temp` or `tempN_input` file's text (millidegrees); nil for anything else, such as the error text or
    /// empty read of a sensor that is asleep.
    public static func celsius(fromMillidegrees text: String) -> Double? {
        let trimmed = text.split(whereSeparator: { $0 == "\n" || $0 == " " }).first
        return trimmed.flatMap { Int($0) }.map { Double($0) / 1000 }
    }

    /// The sensor `sensor:` names (by any of its names, ignoring case), or the hottest when it names none; nil when
    /// there is no sensor, or none of that name.
    public static func chosen(from sensors: [TemperatureSensor], named name: String?) -> TemperatureSensor? {
        guard let name, !name.isEmpty else { return sensors.max { $0.celsius < $1.celsius } }
        let wanted = name.lowercased()
        return sensors.first { $0.names.contains { $0.lowercased() == wanted } }
    }
}
