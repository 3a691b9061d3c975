import TimeZones

/// One i3status module instance as a widget of the kind that replaces it: its options read as i3status's man page
/// describes them, and what has no counterpart kept as a note.
struct I3statusModule {
    /// The widget's name before it is made unique.
    var name: String
    /// The widget's lines under its name (`kind: memory`, `intent:` …), unindented.
    var lines: [String]
    var notes: [String]

    /// i3status's own defaults (i3status.c), used when the config leaves `format` out.
    static let defaultFormats = [
        "cpu_usage": "%usage", "memory": "%used %free %available", "load": "%1min %5min %15min", "disk": "%free",
        "cpu_temperature": "%degrees C", "battery": "%status %percentage %remaining", "tztime": "%Y-%m-%d %H:%M:%S %Z",
        "time": "%Y-%m-%d %H:%M:%S",
    ]
    /// The kinds' placeholders, as i3status names them after `%`.
    static let placeholders = [
        "cpu_usage": ["usage"],
        "memory": [
            "used", "free", "available", "total", "shared", "percentage_used", "percentage_free",
            "percentage_available", "percentage_shared",
        ],
        "load": ["1min", "5min", "15min"],
        "disk": [
            "total", "used", "free", "avail", "percentage_used", "percentage_free", "percentage_avail",
            "percentage_used_of_avail",
        ],
        "cpu_temperature": ["degrees"],
        "battery": ["status", "percentage", "remaining", "emptytime", "consumption"],
    ]
    /// Options any module takes that the import reads elsewhere (the bar's layout) or not at all.
    static let layoutOptions: Set<String> = ["min_width", "align", "separator", "separator_block_width"]
    /// The kinds' default `interval:`.
    static let kindIntervals = ["cpu": 5, "memory": 5, "load": 5, "disk": 30, "temperature": 5]

    /// The widget for `section`, or nil when no kind replaces its module; `interval` is general's.
    static func translate(_ section: I3statusConfig.Section, interval: Int) -> I3statusModule? {
        var consumed: Set<String> = ["format"]
        var intent: [String] = []
        var keys: [String] = []
        var notes: [String] = []
        let kind: String
        let format = section.value("format") ?? defaultFormats[section.name] ?? ""
        func integer(_ key: String) -> Int? {
            consumed.insert(key)
            guard let text = section.value(key) else { return nil }
            guard let number = Double(text), (0...100).contains(number) else {
                notes.append("\(key) = \(text) is not a number from 0 to 100: left out")
                return nil
            }
            return Int(number.rounded())
        }
        switch section.name {
        case "cpu_usage":
            kind = "cpu"
            if let value = integer("degraded_threshold") { intent.append("warning: \(value)") }
            if let value = integer("max_threshold") { intent.append("critical: \(value)") }
        case "memory":
            kind = "memory"
            // i3status colours memory when *available* falls below a threshold; the kind watches the share used,
            // which with memavailable is 100 % less the share available.
            for (key, level) in [("threshold_degraded", "warning"), ("threshold_critical", "critical")] {
                consumed.insert(key)
                guard let value = section.value(key) else { continue }
                if value.hasSuffix("%"), let percent = Double(value.dropLast()), (0...100).contains(percent) {
                    intent.append("\(level): \(Int((100 - percent).rounded()))")
                } else {
                    notes.append(
                        "\(key) = \(value) is not translated: \(level): is a percentage of memory used "
                            + "(write it as a percentage, e.g. 10% available is \(level): 90)")
                }
            }
            consumed.formUnion(["memory_used_method", "unit", "decimals"])
            if let method = section.value("memory_used_method") { intent.append("used_method: \(method)") }
            if let unit = section.value("unit") { intent.append("unit: \(unit)") }
            if let decimals = section.value("decimals") { intent.append("decimals: \(decimals)") }
        case "load":
            kind = "load"
            consumed.insert("max_threshold")
            if let value = section.value("max_threshold") {
                intent.append("critical: \(I3blocksImport.yamlQuoted(value))")
            }
        case "disk":
            kind = "disk"
            intent.append("path: \(I3blocksImport.yamlQuoted(section.title ?? "/"))")
            consumed.formUnion(["prefix_type", "low_threshold", "threshold_type"])
            if let prefixes = section.value("prefix_type") { intent.append("prefix_type: \(prefixes)") }
            if let low = section.value("low_threshold"), let number = Double(low), number > 0 {
                // Below low_threshold of what is free, i3status colours bad: the share used from 100 less it on.
                switch section.value("threshold_type") ?? "percentage_avail" {
                case let type where type.hasPrefix("percentage_") && number > 100:
                    notes.append("low_threshold = \(low) of \(type) is not translated: it is no percentage")
                case "percentage_free":
                    intent.append("critical: \(Int((100 - number).rounded()))")
                case "percentage_avail":
                    intent.append("critical: \(Int((100 - number).rounded()))")
                    notes.append(
                        "low_threshold = \(low) of percentage_avail is critical: from \(Int((100 - number).rounded()))% "
                            + "used, which counts root's reserve as used: it fires a little earlier")
                case let type:
                    notes.append("low_threshold = \(low) of \(type) is not translated: critical: is a percentage used")
                }
            }
        case "cpu_temperature":
            kind = "temperature"
            if let zone = section.title { intent.append("sensor: thermal_zone\(zone)") }
            if let value = integer("max_threshold") { intent.append("critical: \(value)") }
        case "battery":
            kind = "battery"
            battery(section, consumed: &consumed, intent: &intent, notes: &notes, format: format)
        case "tztime", "time":
            return clock(section)
        case "ethernet", "wireless":
            return network(section, interval: interval)
        case "volume":
            return volume(section)
        default:
            return nil
        }
        let known = placeholders[section.name] ?? []
        let (translated, unknown) = translatePlaceholders(format, known: known, perCore: section.name == "cpu_usage")
        intent.insert("format: \(I3blocksImport.yamlQuoted(translated))", at: 0)
        for name in unknown {
            notes.append("%\(name) in format has no counterpart in the \(kind) kind: it shows as typed")
        }
        // A pushed kind (battery) has no interval: the kernel says when to read.
        if let kindInterval = kindIntervals[kind], interval != kindInterval { keys.append("interval: \(interval)s") }
        notes += unreadOptions(section, consumed: consumed)
        let widgetName =
            section.name == "disk" && section.title == "/"
            ? "disk_root" : section.name == "battery" && section.title == "all" ? "battery" : section.reference
        return I3statusModule(
            name: widgetName, lines: ["kind: \(kind)"] + keys + ["intent:"] + intent.map { "  " + $0 }, notes: notes)
    }

    /// `battery all` (the batteries combined, as the kind does with no `battery:`) or `battery N` (BAT<N>, the path
    /// i3status reads by default). i3status's status strings, a time threshold and a path of its own have no
    /// counterpart and become notes.
    static func battery(
        _ section: I3statusConfig.Section, consumed: inout Set<String>, intent: inout [String], notes: inout [String],
        format: String
    ) {
        if let number = section.title, number != "all" {
            intent.append("battery: \(I3blocksImport.yamlQuoted("BAT" + number))")
        }
        consumed.formUnion(["format_down", "low_threshold", "threshold_type", "hide_seconds"])
        intent.append("format_down: \(I3blocksImport.yamlQuoted(section.value("format_down") ?? "No battery"))")
        if let low = section.value("low_threshold") {
            let type = section.value("threshold_type") ?? "time"
            if type == "percentage", let number = Double(low), (0...100).contains(number) {
                intent.append("critical: \(Int(number.rounded()))")
            } else {
                notes.append(
                    "low_threshold = \(low) of threshold_type \(type) is not translated: critical: is a percentage")
            }
        }
        if section.value("hide_seconds") != "true", format.contains("%remaining") || format.contains("%emptytime") {
            notes.append("%remaining and %emptytime show hours and minutes, as with hide_seconds = true")
        }
    }

    /// `tztime NAME` and `time` as a clock: strftime's format is the clock's where the clock has the conversion.
    static func clock(_ section: I3statusConfig.Section) -> I3statusModule {
        var notes: [String] = []
        var keys: [String] = []
        var format = section.value("format") ?? defaultFormats[section.name]!
        if let time = section.value("format_time") { format = format.replacing("%time", with: time) }
        var intent: [String] = []
        let unsupported = conversions(in: format).filter { !TimeFormat.conversions.contains($0) }
        if unsupported.isEmpty {
            intent.append("format: \(I3blocksImport.yamlQuoted(format))")
            if TimeFormat(format).writesSeconds { intent.append("seconds: true") }
        } else {
            notes.append(
                "format = \(format) is not translated: the clock has no "
                    + unsupported.map { "%\($0)" }.joined(separator: ", ") + "; it shows %H:%M")
        }
        if let zone = section.value("timezone") { keys.append("timezone: \(I3blocksImport.yamlQuoted(zone))") }
        notes += unreadOptions(section, consumed: ["format", "format_time", "timezone"])
        return I3statusModule(
            name: section.name == "time" ? "time" : "clock_" + (section.title ?? "local"),
            lines: ["kind: clock"] + keys + (intent.isEmpty ? [] : ["intent:"] + intent.map { "  " + $0 }),
            notes: notes)
    }

    /// The characters after each `%` of a strftime format (`%%` is one conversion).
    static func conversions(in format: String) -> [Character] {
        var result: [Character] = []
        var escaped = false
        for character in format {
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "%" {
                escaped = true
            }
        }
        return result
    }

    /// i3status's `%name` placeholders as the kinds' `{name}`: the longest known name at each `%` (`%percentage_used`
    /// before `%percentage`), `%cpuN` for each core when `perCore`; an unknown one stays as typed and is returned.
    static func translatePlaceholders(_ format: String, known: [String], perCore: Bool) -> (String, [String]) {
        var result = ""
        var unknown: [String] = []
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let after = rest[rest.index(after: percent)...]
            let word = after.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            var name = known.filter { word.hasPrefix($0) }.max { $0.count < $1.count }
            if name == nil, perCore, word.hasPrefix("cpu") {
                let digits = word.dropFirst(3).prefix { $0.isNumber }
                if !digits.isEmpty { name = "cpu" + digits }
            }
            if let name {
                result += "{\(name)}"
                rest = after.dropFirst(name.count)
            } else {
                if !word.isEmpty { unknown.append(String(word)) }
                result += "%"
                rest = after
            }
        }
        return (result + rest, unknown)
    }

    /// Options the translation did not read, each a note.
    static func unreadOptions(_ section: I3statusConfig.Section, consumed: Set<String>) -> [String] {
        section.options.filter { !consumed.contains($0.key) && !layoutOptions.contains($0.key) }.map {
            "\($0.key) = \($0.value) is not translated"
                + ($0.key.hasPrefix("color") ? ": the kinds colour warning #FFFF00 and critical #FF0000" : "")
        }
    }
}
