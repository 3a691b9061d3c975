import Text

/// Text from outside the daemon (FIFO lines, widget names from requests, a provider's messages) made safe for the
/// log: one line, no control characters, a bounded length.
///
/// A log line goes to a terminal or the journal; an escape sequence in it could repaint the terminal, a CR could hide
/// the start of the line, a NUL could cut it. Every such character is written as a visible escape instead. Invalid
/// UTF-8 cannot reach here: a Swift `String` holds none (bytes from outside are decoded with U+FFFD for bad ones,
/// and the control FIFO rejects a line that is not UTF-8).
enum LogText {
    /// The most characters of an outsider's text a log line quotes.
    static let excerptLimit = 80
    /// The most characters of a whole line caused from outside (`Daemon.log(_:from:_:)`).
    static let lineLimit = 400

    /// `text` with control characters (C0, DEL, C1), line and paragraph separators and bidirectional overrides
    /// written as escapes: `\n`, `\r`, `\t`, `\x1b`, `\u{202e}`. Text without any comes back unchanged.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars { append(scalar, to: &result) }
        return result
    }

    /// `text` escaped and cut to at most `limit` characters of the result, with "…" when something was cut.
    ///
    /// Counted in Unicode scalars, not grapheme clusters: one "character" of a letter and ten thousand combining marks
    /// is still cut.
    static func excerpt(_ text: String, limit: Int = excerptLimit) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            var piece = ""
            append(scalar, to: &piece)
            let length = piece.unicodeScalars.count
            guard count + length <= limit else { return result + "…" }
            result += piece
            count += length
        }
        return result
    }

    /// The characters `TerminalText` escapes for the CLI, so a log line and a command's output hide the same ones.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        TerminalText.isUnsafe(scalar)
    }

    private static func append(_ scalar: Unicode.Scalar, to result: inout String) {
        guard needsEscape(scalar) else {
            result.unicodeScalars.append(scalar)
            return
        }
        switch scalar {
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
            result +=
                scalar.value < 0x100 ? "\\x" + hex(UInt8(scalar.value)) : "\\u{\(String(scalar.value, radix: 16))}"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
