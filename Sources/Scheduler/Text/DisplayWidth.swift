/// Measures and truncates status-bar text in cells of a monospace grid.
///
/// Width is decided per grapheme cluster, because that is the unit a renderer draws: a letter with its combining
/// marks, an emoji ZWJ sequence or a flag each occupy one slot. Measuring runs for every rendered entry, so the code
/// walks UTF-8 indices and scalar slices instead of materialising `Character`s, and ASCII skips the Unicode work.
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
    static let ellipsis = "…"

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
        var base: Unicode.Scalar?
        var joined = false
        for scalar in scalars {
            guard let base else {
                // Prepended format characters (e.g. Arabic number signs) come before the base and take no cell.
                if !isZeroWidth(scalar) {
                    // Nothing later in the cluster can make a wide base wider, so it needs no further look.
                    if scalarWidth(scalar) == 2 {
                        return 2
                    }
                    base = scalar
                }
                continue
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
        return base == nil ? 0 : 1
    }

    /// Width of a scalar that starts a cluster: 2 for East Asian Wide/Fullwidth or emoji presentation, else 1.
    static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if isEastAsianWide(value) {
            return 2
        }
        // Since Unicode 9 every Emoji_Presentation scalar below U+1F000 is also East Asian Wide, so the property lookup
        // is only needed up here: for regional indicators (narrow by East Asian Width, but a pair is a flag and a lone
        // one still draws as an emoji letter) and for emoji newer than the table.
        if value >= 0x1F000, scalar.properties.isEmojiPresentation {
            return 2
        }
        return 1
    }

    /// Whether a scalar draws nothing by itself: controls, format characters, nonspacing and enclosing marks.
    ///
    /// Variation selectors and ZWJ are nonspacing marks or format characters, so they are covered by the categories.
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        // Below U+0300 the only zero-width scalars are C0/C1 controls, DEL and the soft hyphen; checking them here
        // keeps Latin text away from the general-category lookup.
        if value < 0x300 {
            return value < 0x20 || (value >= 0x7F && value < 0xA0) || value == 0xAD
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return false
        }
    }
}

extension DisplayWidth {
    /// Runs `body` with a `ClusterScanner` over `text`.
    @inline(__always)
    static func withScanner<Result>(over text: Substring, _ body: (inout ClusterScanner) -> Result) -> Result {
        var contiguous = text
        // Native Swift strings (every string on Linux) already are contiguous UTF-8, so this copies nothing; a lazily
        // bridged Cocoa string is converted once here instead of being transcoded on every access.
        contiguous.makeContiguousUTF8()
        let snapshot = contiguous
        return contiguous.withUTF8 { bytes in
            var scanner = ClusterScanner(text: snapshot, bytes: bytes)
            return body(&scanner)
        }
    }

    /// Walks a substring one grapheme cluster at a time, yielding where each cluster ends and how wide it is.
    ///
    /// ASCII is read straight from the UTF-8 bytes: an ASCII byte is a whole cluster unless it is the CR of a CR LF or
    /// a non-ASCII scalar follows that may extend it (a combining mark, ZWJ, VS16 or keycap mark). Those, and all
    /// non-ASCII text, go to the standard library for the cluster end, and their scalars are read through a slice of
    /// the substring's scalar view, so no `Character` (which allocates beyond 15 UTF-8 bytes) is built.
    struct ClusterScanner {
        private let text: Substring
        private let bytes: UnsafeBufferPointer<UInt8>
        /// UTF-8 offset from `text.startIndex` where the next cluster starts.
        private var offset = 0
        /// `text`'s index for `offset` when the previous cluster came from the standard library, whose indices are
        /// known to sit on a cluster boundary; one made from a byte offset would be re-checked on every use.
        private var boundary: String.Index?

        init(text: Substring, bytes: UnsafeBufferPointer<UInt8>) {
            self.text = text
            self.bytes = bytes
        }

        /// The next cluster's end, as a UTF-8 offset from the start of the text, and its width.
        mutating func next() -> (end: Int, width: Int)? {
            guard offset < bytes.count else { return nil }
            let byte = bytes[offset]
            if byte < 0x80 {
                let after = offset &+ 1
                if after == bytes.count || (bytes[after] < 0x80 && (byte != 0x0D || bytes[after] != 0x0A)) {
                    offset = after
                    boundary = nil
                    return (after, DisplayWidth.asciiWidth(byte))
                }
            }
            let start = boundary ?? text.utf8.index(text.startIndex, offsetBy: offset)
            let end = text.index(after: start)
            let width = DisplayWidth.clusterWidth(text.unicodeScalars[start..<end])
            offset = text.utf8.distance(from: text.startIndex, to: end)
            boundary = end
            return (offset, width)
        }
    }
}
