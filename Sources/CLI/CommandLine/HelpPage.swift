/// One command's help as data: what `--help` prints, and what widgetd(1) is made from.
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
}
