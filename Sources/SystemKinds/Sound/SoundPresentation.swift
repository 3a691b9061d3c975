import Kind
import Timelines

/// How a sound widget shows the server's state: the volume with `format` (or `format_muted` while muted) in every
/// family, the gauge glyph in the small ones; a missing server or device as a state of its own (waybar class
/// `absent`), never an error.
enum SoundPresentation {
    static let defaultFormat = "♪ {volume}"
    static let defaultMutedFormat = "♪ muted"
    /// i3status's `%volume` and `%devicename`, and the names widgetd adds.
    static let placeholders = ["volume", "muted", "device", "description", "devicename"]

    static func content(
        _ state: SoundServerState?, device selector: String, format: String?, mutedFormat: String?, family: Family
    ) -> EntryContent {
        switch state {
        case nil:
            return EntryContent(text: "♪ --", tooltip: "connecting to the sound server", classes: ["absent"])
        case .noServer(let reason)?:
            return EntryContent(
                text: "no sound server", tooltip: "no sound server: \(reason)", classes: ["absent"])
        case .connected(_, _, let devices)?:
            guard let device = state?.device(selector) else {
                let names = devices.map { "\($0.direction.rawValue) \($0.name)" }
                let wanted = selector == "sink" || selector == "source" ? "no default \(selector)" : "no '\(selector)'"
                let text = selector == "source" ? "no source" : selector == "sink" ? "no sink" : "no \(selector)"
                return EntryContent(
                    text: text,
                    tooltip: wanted + (names.isEmpty ? "; the server has no device" : "; there are: ")
                        + names.joined(separator: ", "),
                    classes: ["absent"])
            }
            return content(device, format: format, mutedFormat: mutedFormat, family: family)
        }
    }

    /// A device's volume and mute as the widget's text.
    static func content(_ device: SoundDevice, format: String?, mutedFormat: String?, family: Family) -> EntryContent {
        let volume = String(device.volume.percent) + "%"
        let values = [
            "volume": volume, "muted": device.muted ? "muted" : "", "device": device.name,
            "description": device.description, "devicename": device.description,
        ]
        let text = device.muted ? (mutedFormat ?? defaultMutedFormat) : (format ?? defaultFormat)
        let reading = SystemReading(
            values: values, level: nil, fraction: min(Double(device.volume.percent) / 100, 1),
            tooltip: "\(device.description) (\(device.direction.rawValue) \(device.name)): \(volume)"
                + (device.muted ? ", muted" : ""))
        var content = reading.content(
            format: PlaceholderFormat(text), thresholds: Thresholds(warning: nil, critical: nil), family: family)
        content.text = trimmed(content.text)
        if device.muted { content.classes.append("muted") }
        return content
    }

    /// The text without the spaces an empty `{muted}` leaves at its end.
    private static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
