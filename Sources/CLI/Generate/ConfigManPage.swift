import Config
import Formats
import FoundationEssentials
import Kind
import Timelines

/// widgets.yaml(5): every key the config checker takes (`ConfigSchema`), every family, format, mouse button and kind.
enum ConfigManPage {
    /// What each key means. A key the checker takes and this table lacks shows as UNDOCUMENTED, which the tests refuse;
    /// a section of the kinds' (`plugins:`) describes itself (`TopLevelSection.summary`).
    static let keyDescriptions: [String: String] = [
        "settings": "Optional settings for the whole daemon; they take effect when it restarts.",
        "widgets": "A mapping from instance name to widget; the name names its files and is what commands take.",
        "bars": "Optional: bar names to lists of widgets, for 'widgetd bar --bar NAME'.",
        "output_dir": "Where the bar files go (default $XDG_RUNTIME_DIR/widgetd/out); ~ is the home directory.",
        "store": "The shared SQLite store (default $XDG_DATA_HOME/widgetd/store.sqlite).",
        "kind": "The provider: one of the kinds below. Required.",
        "family": "The size class, which sets the width budget (default: the kind's first family).",
        "intent": "The kind's parameters, typed as the kind declares them (see KINDS).",
        "schedule": "A cron expression (5 fields, names, steps, @hourly …) adding reload times.",
        "timezone": "The IANA zone schedule: and the kind's dates are read in (default: local).",
        "output":
            "A format or list of formats to write, each to OUTPUT_DIR/NAME.FORMAT (default plain; none for a widget a bars: entry shows, whose line shows it).",
        "on_click": "A mapping from button to an intent name, or to a command (argv list) started detached.",
    ]

    static func description(of key: String) -> String { keyDescriptions[key] ?? "UNDOCUMENTED" }

    static func page(registry: KindRegistry, version: String) -> String {
        var lines = ManPage.header(title: "WIDGETS.YAML", section: 5, version: version, manual: "File Formats")
        lines += [
            ".SH NAME", "widgets.yaml \\- widgetd's widget configuration",
            ".SH SYNOPSIS", ".I ~/.config/widgetd/widgets.yaml",
            ".SH DESCRIPTION",
            Roff.paragraph(
                """
                widgets.yaml declares the widget instances widgetd(1) runs. 'widgetd check' reports every mistake
                with file:line:col; unknown keys, unknown kinds, families a kind lacks, wrong parameter types,
                bad cron expressions, colours and paths are all errors. The daemon re-reads the file when it
                changes; an invalid edit keeps the running config.
                """),
            ".PP", ".nf", ".RS 4",
            "widgets:", "  quote:", "    kind: quotes", "    family: systemSmall", "    intent:",
            "      category: focus", "    schedule: \"*/30 * * * *\"", "    output: [i3blocks, waybar]",
            ".RE", ".fi",
            ".SH TOP-LEVEL KEYS",
        ]
        for key in ConfigSchema.topLevelKeys(in: registry) {
            let summary = registry.section(forKey: key)?.summary ?? description(of: key)
            lines += [".TP", ".B \(key)", Roff.paragraph(summary)]
        }
        lines += [
            ".TP", ".B \(ConfigSchema.extensionPrefix)*", "Keys of your own (YAML anchors); widgetd ignores them.",
        ]
        lines.append(".SH SETTINGS")
        for key in ConfigSchema.settingsKeys {
            lines += [".TP", ".B \(key)", Roff.paragraph(description(of: key))]
        }
        lines += [".SH WIDGET KEYS", "Every widget takes these; a kind may add keys of its own (see KINDS)."]
        for key in ConfigSchema.widgetKeys {
            lines += [".TP", ".B \(key)", Roff.paragraph(description(of: key))]
        }
        lines += [
            ".SH FAMILIES", "The width budget in display cells (wide characters count two) of the full and short text.",
        ]
        for family in Family.allCases {
            lines += [".TP", ".B \(family.rawValue)", "\(family.fullWidth) cells, short text \(family.shortWidth)."]
        }
        lines.append(".SH OUTPUT FORMATS")
        for format in OutputFormat.allCases {
            lines += [".TP", ".B \(format.rawValue)", Roff.paragraph(Self.summary(of: format))]
        }
        lines += [
            ".SH BUTTONS",
            "The keys of on_click:",
            MouseButton.allCases.map { "\\fB\($0.rawValue)\\fR (\($0.number))" }.joined(separator: ", ") + ".",
            ".SH KINDS",
            "As 'widgetd kinds' lists them.",
        ]
        for kind in registry.kinds {
            let description = KindsCommand.describe(kind).split(separator: "\n").map(String.init)
            lines +=
                [".SS \"\(kind.name)\"", ".nf"] + description.dropFirst().map { Roff.text(String($0.dropFirst(2))) }
            lines.append(".fi")
        }
        lines += [".SH SEE ALSO", ".BR widgetd (1),", ".BR crontab (5)"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// What a format is for; a switch, so a new format cannot be left out.
    static func summary(of format: OutputFormat) -> String {
        switch format {
        case .plain: "The text, for tmux #(), conky and scripts."
        case .i3blocks: "Lines full_text, short_text, color and background, for i3blocks' command=cat."
        case .i3bar: "One i3bar block object, for i3blocks format=json and swaybar."
        case .waybar: "A JSON object with text, alt, tooltip, class and percentage, for waybar's return-type: json."
        case .polybar: "%{B#…}%{F#…}text%{F-}%{B-}, for polybar's custom/script."
        case .tmux: "#[fg=…,bg=…]text#[default], for the tmux status line."
        }
    }
}
