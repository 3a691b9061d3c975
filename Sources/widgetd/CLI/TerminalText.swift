/// Text from the store or a file made safe to print on a terminal, one record per line.
///
/// A stored message may hold anything a script put there: a newline would split one row into two, an ESC sequence
/// would recolour or clear the terminal, a CR would overwrite the row. Each control character is shown as an escape
/// instead (`\n`, `\r`, `\t`, `\u{1B}`), and a backslash as `\\` so the escapes cannot be forged.
enum TerminalText {
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\\": result += "\\\\"
            case _ where isControl(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\\" || isControl(scalar)
    }

    /// C0 and C1 controls, DEL, and the line and paragraph separators that some terminals and editors break at.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
