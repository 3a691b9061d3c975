/// Escapers that append text to a UTF-8 byte buffer so that each bar reads it as literal text.
///
/// They run on every rendered entry, so they work on UTF-8 bytes and copy runs that need no escape in one step; no
/// `JSONEncoder` or `Character` is made per entry. Every special character of these syntaxes is ASCII, and UTF-8 never
/// uses ASCII byte values inside a multi-byte sequence, so comparing single bytes is exact.
public enum Escaping {
    /// Appends `text` as a JSON string literal (RFC 8259), quotes included, pango-escaped too when `pango` is set.
    ///
    /// Quote, backslash and the C0 controls are escaped (`\n`, `\t` and the like by name, the rest as `\u00XX`); DEL
    /// and non-ASCII stay as UTF-8, which every JSON parser accepts and which keeps the file readable.
    public static func appendJSONString(_ text: String, pango: Bool = false, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        appendEscaped(text, to: &output) { byte in
            byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (pango && isPangoSpecial(byte))
        } escape: { bytes, position, output in
            let byte = bytes[position]
            // Pango entities hold no JSON specials, so one pass escapes for both; `"` becomes `&quot;` under pango.
            if pango, isPangoSpecial(byte) {
                appendPangoEntity(byte, to: &output)
                return
            }
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            default:
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Appends `text` with pango markup's specials as the entities `g_markup_escape_text` writes (`&amp;`, `&lt;`,
    /// `&gt;`, `&#39;`, `&quot;`).
    public static func appendPango(_ text: String, to output: inout [UInt8]) {
        appendEscaped(text, to: &output, needsEscape: isPangoSpecial) { bytes, position, output in
            appendPangoEntity(bytes[position], to: &output)
        }
    }

    /// Appends `text` so that polybar shows it literally and reads no formatting tag in it.
    ///
    /// polybar's tag parser (src/tags/parser.cpp) opens a tag at every `%{` and has no escape for it: `%%` prints two
    /// percent signs, unlike in lemonbar (polybar PR #2748, which proposed lemonbar's `%%`, was still open when this
    /// was written). So a zero-width space goes between a `%` and a `{` after it. It also goes after a `%` that ends
    /// the text or precedes another `%`, so that if polybar ever adopts `%%` as an escape, user text still cannot
    /// swallow or open the tag after it. The space takes no cell, and polybar drops it (with a warning) if no font has
    /// it.
    public static func appendPolybar(_ text: String, to output: inout [UInt8]) {
        appendEscaped(text, to: &output) { byte in
            byte == UInt8(ascii: "%")
        } escape: { bytes, position, output in
            output.append(UInt8(ascii: "%"))
            let next = position + 1
            if next == bytes.count || bytes[next] == UInt8(ascii: "{") || bytes[next] == UInt8(ascii: "%") {
                output.append(contentsOf: zeroWidthSpace)
            }
        }
    }

    /// Appends `text` so that tmux's status line shows it literally, with `styleFollows` telling whether the caller
    /// writes a style (`#[…]`) right after it.
    ///
    /// A `#` in `#(command)` output goes through tmux twice (tmux 3.3a, checked on the real one by `TmuxTests`). First
    /// the output is expanded as a format (format.c), where `##` is one `#` and `#{…}`, `#(…)` and `#H` expand, except
    /// that a run of `#`s followed by `[` is copied whole; then the status line is drawn (format-draw.c), where `##` is
    /// one `#` again and a run before `[` opens a style if it is odd, or paints half as many `#`s and a literal `[` if it
    /// is even. So a run of k `#`s before a `[` becomes 2k, which only the drawing halves, and any other run 4k, which
    /// both halve: `#[fg=red]`, `#{host}` and `#(…)` show as typed and never act as a style, variable or command. A run
    /// that ends the text counts as one before `[` when a style follows, since it is then one run with that style's
    /// `#`.
    public static func appendTmux(_ text: String, styleFollows: Bool, to output: inout [UInt8]) {
        let hash = UInt8(ascii: "#")
        var text = text
        text.withUTF8 { bytes in
            output.reserveCapacity(output.count + bytes.count + 8)
            var position = 0
            while position < bytes.count {
                // Text up to the next `#` in one append.
                let plainStart = position
                while position < bytes.count && bytes[position] != hash { position += 1 }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<position]))
                guard position < bytes.count else { break }
                let runStart = position
                while position < bytes.count && bytes[position] == hash { position += 1 }
                let beforeBracket =
                    position < bytes.count ? bytes[position] == UInt8(ascii: "[") : styleFollows
                let copies = (position - runStart) * (beforeBracket ? 2 : 4)
                output.append(contentsOf: repeatElement(hash, count: copies))
            }
        }
    }

    /// Copies `text`'s UTF-8 to `output`, with `escape` writing whatever replaces each ASCII byte `needsEscape` picks;
    /// it gets all the bytes and the position, so it can look ahead. Runs between escapes are copied in one append.
    @inline(__always)
    private static func appendEscaped(
        _ text: String,
        to output: inout [UInt8],
        needsEscape: (UInt8) -> Bool,
        escape: (UnsafeBufferPointer<UInt8>, Int, inout [UInt8]) -> Void
    ) {
        var text = text
        text.withUTF8 { bytes in
            output.reserveCapacity(output.count + bytes.count + 8)
            var runStart = 0
            for position in 0..<bytes.count {
                let byte = bytes[position]
                // Every special is ASCII, so the bytes of multi-byte characters never need a look.
                guard byte < 0x80, needsEscape(byte) else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                escape(bytes, position, &output)
                runStart = position + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
    }

    @inline(__always)
    private static func isPangoSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"")
    }

    private static func appendPangoEntity(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
        case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
        case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
        case UInt8(ascii: "'"): output.append(contentsOf: "&#39;".utf8)
        default: output.append(contentsOf: "&quot;".utf8)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// U+200B ZERO WIDTH SPACE in UTF-8.
    private static let zeroWidthSpace: [UInt8] = [0xE2, 0x80, 0x8B]
}
