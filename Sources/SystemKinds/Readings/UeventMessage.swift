/// One kobject uevent as the kernel multicasts it on NETLINK_KOBJECT_UEVENT: `ACTION@DEVPATH`, then `KEY=VALUE`
/// fields, each ended by a NUL (`change@/devices/…/power_supply/BAT0\0ACTION=change\0SUBSYSTEM=power_supply\0…`).
public struct UeventMessage: Sendable, Hashable {
    public var action: String
    public var devicePath: String
    public var properties: [String: String]

    public init(action: String, devicePath: String, properties: [String: String]) {
        self.action = action
        self.devicePath = devicePath
        self.properties = properties
    }

    /// `SUBSYSTEM=`, which says whose change it is (`power_supply`, `backlight`).
    public var subsystem: String? { properties["SUBSYSTEM"] }

    /// The most bytes a message is read as; the kernel builds each in a 2,048-byte buffer (`UEVENT_BUFFER_SIZE`).
    public static let byteLimit = 8192
    /// The most fields kept of one message, so a message made by hand cannot grow a table without end.
    static let fieldLimit = 128

    /// The message in `bytes`, or nil when it is not one: udev's rebroadcasts (`libudev\0…`, a binary header), a
    /// header without `@`, or more than `byteLimit` bytes. A field without `=` is skipped.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count <= Self.byteLimit else { return nil }
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: true)
        guard let header = fields.first, let at = header.firstIndex(of: UInt8(ascii: "@")) else { return nil }
        action = String(decoding: header[..<at], as: UTF8.self)
        devicePath = String(decoding: header[header.index(after: at)...], as: UTF8.self)
        guard !action.isEmpty, devicePath.hasPrefix("/") else { return nil }
        properties = [:]
        for field in fields.dropFirst().prefix(Self.fieldLimit) {
            guard let equals = field.firstIndex(of: UInt8(ascii: "=")) else { continue }
            properties[String(decoding: field[..<equals], as: UTF8.self)] = String(
                decoding: field[field.index(after: equals)...], as: UTF8.self)
        }
    }

    /// The `KEY=VALUE` lines of a sysfs `uevent` file (`/sys/class/power_supply/BAT0/uevent`), which carry the
    /// same fields as the device's uevents; a line without `=` is skipped.
    public static func properties(ofUeventFile text: String) -> [String: String] {
        var properties: [String: String] = [:]
        for line in text.split(separator: "\n").prefix(fieldLimit) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            properties[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return properties
    }
}
