import Basics
import FoundationEssentials
import Kind
import Timelines

/// Translates an i3blocks config into widgets.yaml and the i3blocks config that shows those widgets through widgetd
/// (`widgetd import i3blocks`). Read as i3blocks reads it (config.c, ini.c): `[name]` sections of `key=value` lines,
/// `#` comments, and properties before the first section given to every section.
struct I3blocksImport {
    /// One `[section]`, its properties in file order (global ones first).
    struct Section {
        var name: String
        var line: Int
        var properties: [(key: String, value: String)]

        func value(_ key: String) -> String? { properties.last { $0.key == key }?.value }
    }

    /// What the import gives.
    struct Result {
        var yaml: String
        var i3blocksConfig: String
        /// The widgets made from blocks with `signal=`, with their signal: a key binding's `pkill -RTMIN+N i3blocks`
        /// must become `widgetd reload NAME`, as i3blocks 1.4 ends on a real-time signal that no block of its new
        /// config asks for.
        var signalled: [(widget: String, signal: Int)] = []

        /// What to tell the user about `signalled`, one line each after a heading; empty when no block had a signal.
        var signalAdvice: [String] {
            guard !signalled.isEmpty else { return [] }
            return [
                "blocks with signal= are widgets now: change each `pkill -RTMIN+N i3blocks` (in your i3 or sway key "
                    + "bindings, scripts) as below; the new i3blocks config asks for no signal, and i3blocks 1.4 "
                    + "ends on one it does not ask for"
            ]
                + signalled.map { "pkill -RTMIN+\($0.signal) i3blocks  ->  widgetd reload \($0.widget)" }
        }
    }

    /// i3bar keys widgetd passes on from `intent:`, as the exec kind names them.
    static let blockProperties: Set<String> = [
        "label", "color", "background", "markup", "min_width", "align", "separator", "separator_block_width",
        "short_text", "instance",
    ]
    /// i3blocks keys read into widget keys, not properties.
    static let widgetKeys: Set<String> = ["command", "interval", "signal", "format"]
    /// Keys widgetd has no place for; each is listed as a comment.
    static let untranslatable: [String: String] = [
        "border": "widgetd's i3bar output has no border",
        "border_top": "widgetd's i3bar output has no border", "border_bottom": "widgetd's i3bar output has no border",
        "border_left": "widgetd's i3bar output has no border", "border_right": "widgetd's i3bar output has no border",
        "urgent": "a script says urgent with exit status 33 or \"urgent\":true in its JSON",
        "name": "the widget is named after the section, and BLOCK_NAME is the section's name",
    ]

    /// Sections and what is wrong with the file's lines (as i3blocks would refuse them).
    static func sections(of text: String) -> (sections: [Section], problems: [String]) {
        var global: [(key: String, value: String)] = []
        var sections: [Section] = []
        var problems: [String] = []
        // CR LF is one Character in Swift: split on it too, or a file saved on Windows is one long line.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, raw) in lines.enumerated() {
            // Trailing spaces are kept, as i3blocks keeps them (`label=CPU ` puts a space before the text).
            var line = String(raw.drop { $0 == " " || $0 == "\t" })
            if line.hasSuffix("\r") { line.removeLast() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                line = line.trimmingSpaces()
                guard line.hasSuffix("]") else {
                    problems.append("line \(index + 1): malformed section '\(line)'")
                    continue
                }
                sections.append(Section(name: String(line.dropFirst().dropLast()), line: index + 1, properties: global))
                continue
            }
            guard let equals = line.firstIndex(of: "="), line.first.map({ $0.isLetter || $0 == "_" }) == true else {
                problems.append("line \(index + 1): not key=value: '\(line)'")
                continue
            }
            let property = (key: String(line[..<equals]), value: String(line[line.index(after: equals)...]))
            if sections.isEmpty {
                global.append(property)
            } else {
                sections[sections.count - 1].properties.append(property)
            }
        }
        return (sections, problems)
    }

    /// The translation of `text`, an i3blocks config read from `path`; `widgetd` is how the new i3blocks config
    /// calls widgetd.
    static func translate(_ text: String, path: String, widgetd: String = "widgetd") -> Result {
        let (sections, problems) = sections(of: text)
        let directory = Path.directory(of: path)
        var yaml = [
            "# widgets.yaml made by `widgetd import i3blocks \(path)`.",
            "# Commands run with sh in \(directory), the config's directory, as i3blocks 1.5 runs them (1.4 runs them in",
            "# its own working directory, the one i3 or sway started it in).",
        ]
        var signalled: [(widget: String, signal: Int)] = []
        yaml += problems.map { "# not read: \(commentText($0))" }
        yaml.append("widgets:")
        var bar = [
            "# i3blocks config made by `widgetd import i3blocks \(path)`: every block shows a widgetd widget.",
            "# Clicks go through `widgetd show --follow`, which reads them on its standard input.",
        ]
        var used: Set<String> = []
        for section in sections {
            let name = uniqueName(for: section.name, used: &used)
            var notes: [String] = []
            var keys: [String] = []
            var intent: [String] = []
            if name != section.name {
                notes.append(
                    "section [\(section.name)] is widget '\(name)' (widget names are letters, digits, _ and -)")
                // Its command still sees the section's name: `command=scripts/$BLOCK_NAME` is the common style.
                intent.append("      name: \(yamlQuoted(section.name))")
            }
            // An empty `command=` is none: i3blocks shows the section's full_text.
            if let command = section.value("command"), !command.allSatisfy(\.isWhitespace) {
                if let note = I3blocksContribScripts.note(command: command, section: section.name) {
                    notes.append(note)
                }
                let shell = "cd \(ShellQuoting.quoted(directory)) && \(command)"
                keys.append("    command: [sh, -c, \(yamlQuoted(shell))]")
            } else if let text = section.value("full_text") {
                keys.append("    command: [printf, '%s\\n', \(yamlQuoted(text))]")
                notes.append("no command: the section's full_text is printed instead")
            } else {
                notes.append("section [\(section.name)] has no command: left out")
                yaml += notes.map { "  # \(commentText($0))" }
                continue
            }
            // i3blocks' numbers for its words (-1 once, -2 repeat, -3 persist), and a number of seconds, which it reads
            // with atoi, so `5s` is 5.
            switch section.value("interval") {
            case nil, "0":
                if section.value("command").map({ !$0.allSatisfy(\.isWhitespace) }) == true {
                    notes.append(
                        "no interval: i3blocks runs this block only on a click or a signal; widgetd also runs it at "
                            + "start")
                }
            case "once", "-1": break
            case "persist", "-3": keys.append("    interval: persist")
            case "repeat", "-2": keys.append("    interval: repeat")
            case let value?:
                let digits = value.hasSuffix("s") ? String(value.dropLast()) : value
                if let seconds = Double(digits), seconds > 0 {
                    keys.append("    interval: \(max(1, Int(seconds.rounded())))s")
                } else {
                    notes.append("interval=\(value) is not understood: left out")
                }
            }
            if let signal = section.value("signal") {
                if let number = Int(signal), (1...30).contains(number) {
                    keys.append("    signal: \(number)")
                    signalled.append((name, number))
                } else {
                    notes.append("signal=\(signal) is outside 1-30: left out")
                }
            }
            switch section.value("format") {
            case "json": keys.append("    format: json")
            case nil, "raw": break
            case let other?: notes.append("format=\(other) is not raw or json: left out")
            }
            var seen: Set<String> = []
            for (key, value) in section.properties.reversed() where seen.insert(key).inserted {
                if widgetKeys.contains(key) || key == "full_text" { continue }
                if let reason = untranslatable[key] {
                    notes.append("\(key)=\(value) is not translated: \(reason)")
                    continue
                }
                if key == "separator" {
                    intent.insert("      separator: \(value == "false" ? "false" : "true")", at: 0)
                } else if key == "separator_block_width", Int(value) == nil {
                    notes.append("separator_block_width=\(value) is not a number: left out")
                } else if key == "markup", value != "pango" && value != "none" {
                    notes.append("markup=\(value) is not pango or none: left out")
                } else if key == "align", !["left", "center", "right"].contains(value) {
                    notes.append("align=\(value) is not left, center or right: left out")
                } else if (key == "color" || key == "background"), Color(hex: value) == nil {
                    notes.append("\(key)=\(value) is not a colour widgetd reads: left out")
                } else {
                    intent.insert("      \(key): \(yamlQuoted(value))", at: 0)
                }
            }
            yaml += notes.map { "  # \(commentText($0))" }
            yaml.append("  \(name):")
            yaml.append("    kind: exec")
            yaml += keys
            yaml.append("    output: [i3bar]")
            if !intent.isEmpty { yaml += ["    intent:"] + intent }

            // The click section first, for i3blocks 1.4, which tells a persist block nothing (contrib/i3blocks.conf).
            bar += [
                "", "[widgetd]", "instance=\(name)",
                // The pointer's place on the screen too, which a script that opens a popup there reads as BLOCK_X.
                "command=case $BLOCK_BUTTON in [1-5]) exec \(widgetd) click \(name) --button $BLOCK_BUTTON"
                    + " ${BLOCK_X:+--screen-x $BLOCK_X} ${BLOCK_Y:+--screen-y $BLOCK_Y};; esac",
                "", "[widgetd]", "instance=\(name)", "interval=persist", "format=json",
                "command=exec \(widgetd) show \(name) --format i3bar --follow",
            ]
        }
        var result = Result(
            yaml: "", i3blocksConfig: bar.joined(separator: "\n") + "\n", signalled: signalled)
        let advice = result.signalAdvice
        if let heading = advice.first {
            yaml.insert(contentsOf: ["# " + heading + ":"] + advice.dropFirst().map { "#   " + $0 }, at: 3)
        }
        result.yaml = yaml.joined(separator: "\n") + "\n"
        return result
    }

    /// A note as a YAML comment can hold it: the file's text is quoted in notes, and a control character (a NUL, a
    /// tab, a carriage return) in a comment makes the whole generated file fail to load.
    static func commentText(_ note: String) -> String {
        String(
            String.UnicodeScalarView(
                note.unicodeScalars.map {
                    $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) ? "?" : $0
                }))
    }

    /// The section's name made a widget name, unique in the file.
    static func uniqueName(for section: String, used: inout Set<String>) -> String {
        var name = String(
            section.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "_" }
                .drop { $0 == "-" }.prefix(InstanceName.maximumLength - 4))
        if name.isEmpty { name = "block" }
        var candidate = name
        var number = 2
        while used.contains(candidate) {
            candidate = "\(name)_\(number)"
            number += 1
        }
        used.insert(candidate)
        return candidate
    }

    /// A YAML double-quoted scalar.
    static func yamlQuoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// i3blocks' search path (config.c): `$XDG_CONFIG_HOME/i3blocks/config` (or `~/.config/…`), `~/.i3blocks.conf`,
    /// `$XDG_CONFIG_DIRS/i3blocks/config` (or `/etc/xdg/…`), `/etc/i3blocks.conf`.
    static func searchPath(environment: [String: String]) -> [String] {
        var paths: [String] = []
        if let home = environment["HOME"] {
            paths.append((environment["XDG_CONFIG_HOME"] ?? home + "/.config") + "/i3blocks/config")
            paths.append(home + "/.i3blocks.conf")
        }
        paths.append((environment["XDG_CONFIG_DIRS"] ?? "/etc/xdg") + "/i3blocks/config")
        paths.append("/etc/i3blocks.conf")
        return paths
    }
}
