/// i3status's `volume` module as a `sound` widget.
extension I3statusModule {
    /// i3status's defaults (i3status.c) for a module that leaves `format` or `format_muted` out.
    static let volumeDefaults = (format: "♪: %volume", muted: "♪: 0%%")
    /// i3status's volume placeholders; the sound kind has both, by the same names.
    static let volumePlaceholders = ["volume", "devicename"]

    /// `volume NAME` as a sound widget, `device` read as i3status reads it: `pulse` (in any case), `default` or none
    /// is the default sink (i3status asks pulse first), `pulse:NAME` that sink. A sink by index (`pulse:1`), an ALSA
    /// device and the ALSA mixer have no counterpart: the widget shows the default sink, and a note says why.
    static func volume(_ section: I3statusConfig.Section) -> I3statusModule {
        var intent: [String] = []
        var notes: [String] = []
        for (key, fallback) in [("format", volumeDefaults.format), ("format_muted", volumeDefaults.muted)] {
            let (translated, unknown) = volumeFormat(section.value(key) ?? fallback)
            intent.append("\(key): \(I3blocksImport.yamlQuoted(translated))")
            for name in unknown {
                notes.append("%\(name) in \(key) has no counterpart in the sound kind: it shows as typed")
            }
        }
        // ALSA's options, named together in one note: the widget shows the pulse server's default sink instead.
        var alsa: [String] = []
        let device = section.value("device") ?? "default"
        if device.lowercased().hasPrefix("pulse") {
            let after = device.dropFirst("pulse".count)
            if after.first == ":" {
                let sink = after.dropFirst()
                // i3status takes a name that starts with a digit as an index (`atoi`), and so does this.
                if let first = sink.first, !first.isNumber {
                    intent.append("device: \(I3blocksImport.yamlQuoted(String(sink)))")
                } else {
                    notes.append(
                        "device = \(device) is not translated: the sound kind names a sink by its name "
                            + "(pactl list short sinks), not by its index; the widget shows the default sink")
                }
            }
        } else if device.lowercased() != "default" {
            alsa.append("device = \(device)")
        }
        alsa += ["mixer", "mixer_idx"].compactMap { key in section.value(key).map { "\(key) = \($0)" } }
        if !alsa.isEmpty {
            let capture = section.value("mixer")?.lowercased().hasPrefix("capture") == true
            notes.append(
                alsa.joined(separator: ", ") + (alsa.count == 1 ? " is" : " are")
                    + " ALSA's, not translated: widgetd speaks to the pulse server (PipeWire's included); the widget "
                    + "shows its default sink" + (capture ? " (device: source shows the default source)" : ""))
        }
        notes.append("i3status colours a muted device color_degraded; the sound kind does not (waybar: class muted)")
        notes += unreadOptions(section, consumed: ["format", "format_muted", "device", "mixer", "mixer_idx"])
        return I3statusModule(
            name: section.title == "master" ? "volume" : section.reference,
            lines: ["kind: sound", "intent:"] + intent.map { "  " + $0 }, notes: notes)
    }

    /// A volume format with `%volume` and `%devicename` as `{volume}` and `{devicename}`, and `%%` as the `%` i3status
    /// prints for it (its volume module alone reads `%%`), with the unknown placeholders.
    static func volumeFormat(_ format: String) -> (String, [String]) {
        var unknown: [String] = []
        let parts = format.split(separator: "%%", omittingEmptySubsequences: false).map {
            let (translated, names) = translatePlaceholders(String($0), known: volumePlaceholders, perCore: false)
            unknown += names
            return translated
        }
        return (parts.joined(separator: "%"), unknown)
    }
}
