import Basics
import FoundationEssentials

/// Writing roff for man pages: escaping text so that groff prints it as written.
enum Roff {
    /// Text for a text line: backslashes escaped, and a line that would start with `.` or `'` (a request) guarded.
    static func text(_ text: String) -> String {
        text.replacingAll("\\", with: "\\e").split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line) }
            .joined(separator: "\n")
    }

    /// A paragraph of help text: its lines, each escaped; roff fills them.
    static func paragraph(_ text: String) -> String {
        Self.text(text.split(separator: "\n").map { $0.trimmingSpaces() }.joined(separator: "\n"))
    }

    /// Command syntax (`--format FORMAT`, `show NAME [--follow]`): options and literal words bold, placeholders
    /// italic, hyphens as the minus sign groff keeps copyable (`\-`).
    static func syntax(_ syntax: String) -> String {
        syntax.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            let escaped = text(String(word)).replacingAll("-", with: "\\-")
            let core = word.trimming(anyOf: "[],.|")
            if core.isEmpty { return escaped }
            let isPlaceholder = core.uppercased() == core && core.contains(where: \.isLetter)
            return (isPlaceholder ? "\\fI" : "\\fB") + escaped + "\\fR"
        }.joined(separator: " ")
    }
}
