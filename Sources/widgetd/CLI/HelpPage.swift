/// One command's help as data: what `--help` prints, and what the man page and completions are made from.
struct HelpPage {
    var overview: String
    var usage: String
    /// Positional arguments (or actions, for `motivations` and `todos`) and what each means.
    var arguments: [(String, String)]
    /// Options as written in help (`--format FORMAT`, `--x X --width W`, `-h, --help`) and what each does.
    var options: [(String, String)]

    /// The text `widgetd help COMMAND` prints, in swift-argument-parser's layout.
    var text: String {
        var lines = ["OVERVIEW: \(overview)", "", "USAGE: \(usage)"]
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"] + arguments.map(Help.row)
        }
        lines += ["", "OPTIONS:"] + options.map(Help.row)
        return lines.joined(separator: "\n")
    }

    /// Each option's names and the placeholder of its value: `--format FORMAT` is `("--format", "FORMAT")`,
    /// `--x X --width W` is two options, `-h, --help` is `-h` and `--help` with none.
    var optionNames: [(name: String, placeholder: String?)] {
        var names: [(name: String, placeholder: String?)] = []
        for (syntax, _) in options {
            let words = syntax.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            for (index, word) in words.enumerated() where word.hasPrefix("-") {
                let next = words.indices.contains(index + 1) ? words[index + 1] : nil
                names.append((word, next.flatMap { $0.hasPrefix("-") ? nil : $0 }))
            }
        }
        return names
    }

    /// The explanation of the option `name`.
    func summary(ofOption name: String) -> String {
        for (syntax, summary) in options
        where syntax.split(whereSeparator: { $0 == " " || $0 == "," }).contains(Substring(name)) {
            return summary
        }
        return ""
    }
}
