/// Measures and truncates status-bar text in cells of a monospace grid.
///
/// Width is decided per grapheme cluster, because that is the unit a renderer draws: a letter with its combining
/// marks, an emoji ZWJ sequence or a flag each occupy one slot. Measuring runs for every rendered entry, so text is
/// read as UTF-8 bytes without building `Character`s or allocating, and ASCII skips the Unicode work altogether.
public enum DisplayWidth {
    /// Cells one grapheme cluster takes: 0 for clusters of only zero-width scalars (combining marks, ZWJ, variation
    /// selectors, format chars, controls), 2 for East Asian Wide/Fullwidth and emoji presentation (including a VS16
    /// U+FE0F sequence, ZWJ sequences, flags, keycaps), else 1.
    public static func of(_ character: Character) -> Int {
        // `asciiValue` also covers "\r\n", the only multi-scalar ASCII cluster; it reports LF, a control, so 0.
        if let byte = character.asciiValue {
            return asciiWidth(byte)
        }
        return clusterWidth(character.unicodeScalars)
    }

    /// Cells `text` takes: the sum of `of(_:)` over its grapheme clusters.
    @inlinable
    public static func of<S: StringProtocol>(_ text: S) -> Int {
        // String and Substring are the only StringProtocol types, and one concrete implementation serves both; being
        // inlinable lets these casts fold away at the call site instead of costing a dynamic cast per call.
        if let string = text as? String {
            return width(of: string[...])
        }
        if let substring = text as? Substring {
            return width(of: substring)
        }
        return width(of: String(text)[...])
    }

    /// Cells `text` takes; the non-generic body of `of(_:)`.
    @usableFromInline
    static func width(of text: Substring) -> Int {
        withScanner(over: text) { scanner in
            var total = 0
            while let cluster = scanner.next() {
                total &+= cluster.width
            }
            return total
        }
    }

    /// `text` cut to at most `budget` cells at a grapheme boundary, with "…" appended when anything was cut (the
    /// ellipsis counts within the budget). A budget below 1 gives "". Text that fits comes back unchanged.
    public static func truncate(_ text: String, toWidth budget: Int) -> String {
        guard budget >= 1 else { return "" }
        // A cluster never takes more cells than it has UTF-8 bytes (ASCII is 1 byte for at most 1 cell, anything
        // wider is at least 2 bytes for at most 2 cells), so short text fits without being measured.
        if text.utf8.count <= budget {
            return text
        }
        let room = budget - ellipsisWidth
        let cut: Int? = withScanner(over: text[...]) { scanner in
            var used = 0
            var keptBytes = 0
            while let cluster = scanner.next() {
                used &+= cluster.width
                if used > budget {
                    return keptBytes
                }
                // Only visible clusters move the cut, so trailing controls or joiners are not left dangling before "…".
                if cluster.width > 0, used <= room {
                    keptBytes = cluster.end
                }
            }
            return nil
        }
        guard let cut else { return text }
        // Built in one allocation from the kept UTF-8 bytes and the ellipsis bytes.
        let ellipsisBytes = ellipsis.utf8
        return String(unsafeUninitializedCapacity: cut &+ ellipsisBytes.count) { buffer in
            let keptEnd = buffer.initialize(fromContentsOf: text.utf8.prefix(cut))
            return buffer[keptEnd...].initialize(fromContentsOf: ellipsisBytes)
        }
    }

    /// Marker appended to cut text; East Asian Ambiguous, which status bars draw narrow.
    public static let ellipsis = "…"

    /// Cells `ellipsis` takes.
    static let ellipsisWidth = 1

    /// Width of one ASCII byte: printable characters take a cell, controls (including DEL) take none.
    @inline(__always)
    static func asciiWidth(_ byte: UInt8) -> Int {
        // Unsigned wrap-around folds the two comparisons of 0x20...0x7E into one.
        byte &- 0x20 < 0x5F ? 1 : 0
    }

    /// Width of one grapheme cluster given its scalars.
    ///
    /// The first scalar that takes space decides: marks, emoji modifiers, tags and joined scalars after it draw on top
    /// of or merge into its glyph (and a Hangul leading consonant already covers the vowel and final jamo after it).
    /// Emoji sequences are the exception, as they become one emoji glyph even on a base that is narrow on its own.
    static func clusterWidth<Scalars: Sequence<Unicode.Scalar>>(_ scalars: Scalars) -> Int {
        // Only a narrow base is ever stored: a wide one settles the width at once.
        var narrowBase: Unicode.Scalar?
        var joined = false
        for scalar in scalars {
            guard let base = narrowBase else {
                // Prepended format characters (e.g. Arabic number signs) come before the base and take no cell.
                switch baseWidth(scalar) {
                case 0:
                    continue
                case 1:
                    narrowBase = scalar
                    continue
                default:
                    return 2
                }
            }
            switch scalar.value {
            case 0xFE0F:
                // VS16 asks for emoji presentation, which only means something after an emoji base (❤️, 1️⃣, 🏳️).
                if base.properties.isEmoji {
                    return 2
                }
            case 0x200D:
                joined = true
            default:
                // A ZWJ sequence renders as one emoji glyph even when its base defaults to text presentation.
                if joined, scalar.properties.isEmojiPresentation {
                    return 2
                }
            }
        }
        return narrowBase == nil ? 0 : 1
    }

    /// Width of a scalar on its own: 0 if it draws nothing, 2 if East Asian Wide/Fullwidth or emoji presentation,
    /// else 1.
    ///
    /// `Unicode.Scalar.Properties` lookups cost far more than everything else here (tens of nanoseconds each), so
    /// cheap range checks settle the common cases first and the property lookups are left for the rest.
    static func baseWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        // Below U+0300 the only zero-width scalars are C0/C1 controls, DEL and the soft hyphen.
        if value < 0x300 {
            return value < 0x20 || (value >= 0x7F && value < 0xA0) || value == 0xAD ? 0 : 1
        }
        if isEastAsianWide(value) {
            return 2
        }
        switch value {
        case 0x1F1E6...0x1F1FF:
            // Regional indicators are narrow by East Asian Width, but a pair is a flag and a lone one still draws as
            // an emoji letter.
            return 2
        case 0x0370...0x0482, 0x048A...0x052F,  // Greek and Cyrillic, apart from the Cyrillic combining marks
            0x2010...0x2027, 0x2030...0x205E,  // dashes, quotes, bullets, "…", per mille, primes
            0x20A0...0x20CF,  // currency signs
            0x2100...0x2BFF,  // letterlike, arrows, math, technical, box drawing, shapes, dingbats: status-bar glyphs
            0xE000...0xF8FF, 0xF0000...0x10FFFF:  // private use, where icon fonts (Nerd Fonts, Font Awesome) live
            // No zero-width scalars in these blocks, and no emoji-presentation scalar that the table lacks.
            return 1
        default:
            break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            // Variation selectors and ZWJ are among these; on their own they draw nothing.
            return 0
        default:
            break
        }
        // Since Unicode 9 every Emoji_Presentation scalar below U+1F000 is also East Asian Wide, so only emoji newer
        // than the table need the lookup.
        if value >= 0x1F000, scalar.properties.isEmojiPresentation {
            return 2
        }
        return 1
    }
}
