// Grapheme-cluster walking for `DisplayWidth`, tuned for short, mostly ASCII status-bar text.

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
    /// Most status-bar text is ASCII, symbols, icon-font glyphs, CJK or single emoji, where every scalar is a cluster
    /// of its own. Those are read straight from the UTF-8 bytes (see `isSelfContained(_:)`); only clusters that may
    /// span several scalars go to the standard library's grapheme breaking, which costs several times as much. No
    /// `Character` is built (it allocates beyond 15 UTF-8 bytes): scalars are decoded from the bytes.
    struct ClusterScanner {
        private let text: Substring
        private let bytes: UnsafeBufferPointer<UInt8>
        /// UTF-8 offset from `text.startIndex` where the next cluster starts.
        private var offset = 0
        /// `text`'s index for `offset` when the previous cluster came from the standard library, whose indices are
        /// known to sit on a cluster boundary; one made from a byte offset has to be re-aligned on use.
        private var boundary: String.Index?

        init(text: Substring, bytes: UnsafeBufferPointer<UInt8>) {
            self.text = text
            self.bytes = bytes
        }

        /// The next cluster's end, as a UTF-8 offset from the start of the text, and its width.
        @inline(__always)
        mutating func next() -> (end: Int, width: Int)? {
            guard offset < bytes.count else { return nil }
            let byte = bytes[offset]
            // ASCII followed by ASCII, byte for byte: the only pair of ASCII scalars in one cluster is CR LF.
            if byte < 0x80 {
                let after = offset &+ 1
                if after == bytes.count || (bytes[after] < 0x80 && (byte != 0x0D || bytes[after] != 0x0A)) {
                    offset = after
                    boundary = nil
                    return (after, DisplayWidth.asciiWidth(byte))
                }
            }
            return nextBeyondASCII()
        }

        /// `next()` for a cluster that starts with or is extended by a non-ASCII scalar.
        ///
        /// Kept out of line so that `next()`, and with it the ASCII loop, stays small enough to inline.
        @inline(never)
        private mutating func nextBeyondASCII() -> (end: Int, width: Int) {
            // A self-contained scalar before another one (or the end) is a whole cluster; see `isSelfContained(_:)`.
            let (scalar, after) = bytes.scalar(at: offset)
            if DisplayWidth.isSelfContained(scalar.value), after == bytes.count || startsSelfContained(at: after) {
                offset = after
                boundary = nil
                return (after, DisplayWidth.baseWidth(scalar))
            }
            let start = boundary ?? text.utf8.index(text.startIndex, offsetBy: offset)
            let end = text.index(after: start)
            let endOffset = text.utf8.distance(from: text.startIndex, to: end)
            let width = DisplayWidth.clusterWidth(UTF8Scalars(bytes: bytes, range: offset..<endOffset))
            offset = endOffset
            boundary = end
            return (offset, width)
        }

        /// Whether the scalar starting at UTF-8 offset `position` is self-contained.
        @inline(__always)
        private func startsSelfContained(at position: Int) -> Bool {
            DisplayWidth.isSelfContained(bytes.scalar(at: position).scalar.value)
        }
    }

    /// The scalars of one cluster, decoded from the scanner's UTF-8 bytes.
    fileprivate struct UTF8Scalars: Sequence, IteratorProtocol {
        let bytes: UnsafeBufferPointer<UInt8>
        var range: Range<Int>

        mutating func next() -> Unicode.Scalar? {
            guard !range.isEmpty else { return nil }
            let decoded = bytes.scalar(at: range.lowerBound)
            range = decoded.next..<range.upperBound
            return decoded.scalar
        }
    }

    /// Whether no grapheme-break rule (UAX #29) ever joins `value` to a neighbour that is also self-contained, so
    /// that such a scalar followed by another (or by the end of the text) is a cluster on its own.
    ///
    /// Rules that join two scalars need one of them to be CR, a Prepend, Extend, ZWJ or SpacingMark scalar, a Hangul
    /// jamo or a regional indicator; the blocks below hold none of those (Hangul syllables only join a following
    /// vowel or final jamo, and emoji only a following modifier, VS16 or ZWJ, which are all outside them). The set is
    /// deliberately conservative: anything else just takes the standard library's path.
    static func isSelfContained(_ value: UInt32) -> Bool {
        switch value {
        case 0x0000...0x02FF:
            // ASCII, Latin-1 and the Latin extensions, IPA and spacing modifier letters; CR joins a following LF.
            return value != 0x0D
        case 0x0370...0x0482, 0x048A...0x052F,  // Greek and Cyrillic, apart from the Cyrillic combining marks
            0x2010...0x2027, 0x2030...0x205E,  // dashes, quotes, bullets, "…", per mille, primes
            0x20A0...0x20CF,  // currency signs
            0x2100...0x2BFF,  // letterlike, arrows, math, technical, box drawing, shapes, dingbats
            0x3000...0x3029, 0x3030...0x3096, 0x309B...0x30FF,  // CJK punctuation and kana, apart from their marks
            0x3400...0x4DBF, 0x4E00...0x9FFF,  // CJK ideographs
            0xAC00...0xD7A3,  // Hangul syllables
            0xE000...0xF8FF,  // private use: icon fonts
            0xFF01...0xFF60,  // fullwidth forms
            0x1F300...0x1F3FA, 0x1F400...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF:  // emoji, apart from modifiers
            return true
        default:
            return false
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The scalar whose UTF-8 encoding starts at `position`, and the offset just past it.
    ///
    /// The bytes come from a Swift string, so they are valid UTF-8 and `position` is on a scalar boundary; that is why
    /// no continuation byte is checked.
    @inline(__always)
    fileprivate func scalar(at position: Int) -> (scalar: Unicode.Scalar, next: Int) {
        let lead = UInt32(self[position])
        if lead < 0x80 {
            return (Unicode.Scalar(UInt8(lead)), position &+ 1)
        }
        var value: UInt32
        let length: Int
        if lead < 0xE0 {
            value = lead & 0x1F
            length = 2
        } else if lead < 0xF0 {
            value = lead & 0x0F
            length = 3
        } else {
            value = lead & 0x07
            length = 4
        }
        for index in (position &+ 1)..<(position &+ length) {
            value = value << 6 | UInt32(self[index] & 0x3F)
        }
        // Valid UTF-8 never decodes to a surrogate or beyond U+10FFFF, so the fallback is never taken.
        return (Unicode.Scalar(value) ?? "\u{FFFD}", position &+ length)
    }
}
