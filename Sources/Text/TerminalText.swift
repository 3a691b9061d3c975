/// Text from the store, a file or a script made safe to print on a terminal, one record per line.
///
/// A stored message may hold anything a script put there: a newline would split one row into two, an ESC sequence
/// would recolour or clear the terminal, a CR would overwrite the row, a bidirectional override would show the rest of
/// the line reversed. Each such character is shown as an escape instead (`\n`, `\r`, `\t`, `\u{1B}`, `\u{202E}`), and a
/// backslash as `\\` so the escapes cannot be forged. The daemon's log escapes the same characters (`LogText`), in its
/// own notation.
public enum TerminalText {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\\": result += "\\\\"
            case _ where isUnsafe(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\\" || isUnsafe(scalar)
    }

    /// The characters a terminal acts on or a reader cannot see for what they are: C0 and C1 controls, DEL, the line
    /// and paragraph separators that some terminals and editors break at, and the bidirectional embeddings, overrides
    /// and isolates (U+202A–U+202E, U+2066–U+2069) that reorder what follows them.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
