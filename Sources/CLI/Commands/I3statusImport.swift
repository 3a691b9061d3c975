/// Translates an i3status config into widgets.yaml (`widgetd import i3status`): each module of `order +=` that has a
/// kind becomes a widget of that kind, the order a `bars:` entry, and what has no counterpart a comment naming it.
enum I3statusImport {
    /// The bar the import names in `bars:`, which the i3 `bar {}` block shows.
    static let barName = "i3status"

    /// i3status modules with no widgetd kind yet, and what will replace them.
    static let modulesWithoutKind: [String: String] = [
        "ipv6": "a network widget's {ipv6} shows an interface's IPv6 address",
        "path_exists": "an exec widget can test the path",
        "run_watch": "an exec widget can test the pidfile", "read_file": "an exec widget can cat the file",
        "ddate": "an exec widget can run ddate", "load_average": "did you mean 'load'?",
    ]
    /// i3bar block properties i3status takes on any module, which belong to a `bars:` item in widgets.yaml.
    static let barItemOptions = ["min_width", "align", "separator", "separator_block_width"]

    /// The widgets.yaml for `text`, an i3status config read from `path`.
    static func translate(_ text: String, path: String) -> String {
        let config = I3statusConfig(parsing: text)
        var yaml = ["# widgets.yaml made by `widgetd import i3status \(path)`."]
        yaml += config.problems.map { "# not read: \(comment($0))" }
        yaml += generalNotes(config).map { "# general: \(comment($0))" }
        yaml += config.topLevel.map {
            "# \($0.key) = \(comment($0.value)) is not translated: i3status knows no such option"
        }
        for section in config.sections where section.name != "general" && !config.order.contains(section.reference) {
            yaml.append("# \(comment(section.reference)) is not in 'order': i3status does not show it; left out")
        }
        let interval = Int(config.general?.value("interval") ?? "") ?? 5
        var widgets: [String] = []
        var barItems: [String] = []
        var used: Set<String> = []
        for reference in config.order {
            let words = reference.split(separator: " ", maxSplits: 1).map(String.init)
            let module = words[0]
            let section =
                config.section(reference)
                ?? I3statusConfig.Section(name: module, title: words.count > 1 ? words[1] : nil, line: 0, options: [])
            guard var widget = I3statusModule.translate(section, interval: interval) else {
                let reason = modulesWithoutKind[module] ?? "not an i3status module widgetd knows"
                widgets.append(
                    "  # order += \(I3blocksImport.yamlQuoted(reference)): no widgetd kind for \(module) yet: "
                        + "\(reason); left out")
                continue
            }
            let name = I3blocksImport.uniqueName(for: widget.name, used: &used)
            var layout: [String] = []
            for key in barItemOptions {
                guard let value = section.value(key) else { continue }
                switch key {
                case "separator":
                    layout.append("separator: \(["true", "yes", "on"].contains(value) ? "true" : "false")")
                case "separator_block_width" where Int(value) == nil,
                    "align" where !["left", "center", "right"].contains(value):
                    widget.notes.append("\(key) = \(value) is not understood: left out")
                case "min_width" where Int(value) == nil:
                    layout.append("min_width: \(I3blocksImport.yamlQuoted(value))")
                default: layout.append("\(key): \(value)")
                }
            }
            widgets += widget.notes.map { "  # \(name): \(comment($0))" }
            widgets.append("  \(name):")
            widgets += widget.lines.map { "    " + $0 }
            barItems.append("    - \(name)" + (layout.isEmpty ? "" : ": {\(layout.joined(separator: ", "))}"))
        }
        yaml.append(widgets.contains { !$0.hasPrefix("  #") } ? "widgets:" : "widgets: {}")
        yaml += widgets
        if !barItems.isEmpty { yaml += ["bars:", "  \(barName):"] + barItems }
        yaml += [
            "",
            "# The i3 (or sway) bar block that shows these widgets, in place of `status_command i3status`",
            "# (with `widgetd run` running):",
            "# bar {",
            "#     status_command exec widgetd bar --bar \(barName)",
            "# }",
        ]
        return yaml.joined(separator: "\n") + "\n"
    }

    /// What `general { }` sets that widgetd does its own way.
    static func generalNotes(_ config: I3statusConfig) -> [String] {
        guard let general = config.general else { return [] }
        var notes: [String] = []
        for option in general.options {
            switch (option.key, option.value.lowercased()) {
            case ("interval", _), ("colors", "true"), ("colors", "yes"), ("colors", "on"),
                ("output_format", "i3bar"), ("output_format", "none"), ("color_good", _):
                continue
            case ("color_degraded", "#ffff00"), ("color_bad", "#ff0000"):
                continue
            case ("colors", _):
                notes.append("colors = \(option.value) is not translated: the system kinds colour warning and critical")
            case ("color_degraded", _):
                notes.append("color_degraded = \(option.value) is not translated: warning is #FFFF00")
            case ("color_bad", _):
                notes.append("color_bad = \(option.value) is not translated: critical is #FF0000")
            case ("output_format", _):
                notes.append(
                    "output_format = \(option.value): `widgetd bar` writes i3bar's protocol; for other bars see "
                        + "docs/bars.md")
            default:
                notes.append("\(option.key) = \(option.value) is not translated")
            }
        }
        return notes
    }

    /// A note as a YAML comment holds it.
    static func comment(_ text: String) -> String { I3blocksImport.commentText(text) }
}
