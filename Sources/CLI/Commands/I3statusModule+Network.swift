/// i3status's `ethernet` and `wireless` modules as `network` widgets.
extension I3statusModule {
    /// i3status's defaults (i3status.c) for a module that leaves `format_up` or `format_down` out.
    static let networkDefaults = [
        "ethernet": (up: "E: %ip (%speed)", down: "E: down"),
        "wireless": (up: "W: (%quality at %essid, %bitrate) %ip", down: "W: down"),
    ]
    /// i3status's network placeholders that the network kind has, by their i3status names (`%essid` is `{ssid}`).
    static let networkPlaceholders = ["ip", "quality", "essid"]
    /// The `interval:` the network kind samples at when a format shows throughput or quality.
    static let networkInterval = 5

    /// `ethernet IF` or `wireless IF` as a network widget: `format_up` is `format:`, `format_down` is `format_down:`;
    /// `_first_` leaves `interface:` out (the kind then follows the default route). A placeholder with no counterpart
    /// (`%essid`, `%speed`, `%bitrate` …) stays as typed and is noted.
    static func network(_ section: I3statusConfig.Section, interval: Int) -> I3statusModule {
        let defaults = networkDefaults[section.name] ?? (up: "%ip", down: "down")
        var intent: [String] = []
        var notes: [String] = []
        if let interface = section.title, interface != "_first_" {
            intent.append("interface: \(I3blocksImport.yamlQuoted(interface))")
        } else {
            notes.append(
                "_first_ is not translated as such: without interface: the network kind shows the default route's "
                    + "interface, else the first one up")
        }
        var sampled = false
        for (key, parameter, fallback) in [
            ("format_up", "format", defaults.up), ("format_down", "format_down", defaults.down),
        ] {
            let format = section.value(key) ?? fallback
            let (named, unknown) = translatePlaceholders(format, known: networkPlaceholders, perCore: false)
            let translated = named.replacing("{essid}", with: "{ssid}")
            intent.append("\(parameter): \(I3blocksImport.yamlQuoted(translated))")
            sampled = sampled || translated.contains("{quality}")
            for name in unknown {
                notes.append("%\(name) in \(key) has no counterpart in the network kind: it shows as typed")
            }
        }
        let keys = sampled && interval != networkInterval ? ["interval: \(interval)s"] : []
        notes += unreadOptions(section, consumed: ["format_up", "format_down"])
        let first = section.title == nil || section.title == "_first_"
        return I3statusModule(
            name: first ? section.name : section.reference,
            lines: ["kind: network"] + keys + ["intent:"] + intent.map { "  " + $0 },
            notes: notes)
    }
}
