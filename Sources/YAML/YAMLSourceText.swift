/// Read-only questions about the raw input, for turning libyaml's error positions into useful marks.
///
/// libyaml counts positions in Unicode scalars (`yaml_mark_t.index`) except for reader errors, which only carry a
/// byte offset; both need the input to be mapped back to a line and column or to the character at a position. It
/// detects the encoding from a byte-order mark exactly as libyaml does, so the two agree on what a "character" is.
struct YAMLSourceText {
    private enum Encoding {
        case utf8(bomLength: Int)
        case utf16(bigEndian: Bool)
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let encoding: Encoding

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.starts(with: [0xFF, 0xFE]) {
            encoding = .utf16(bigEndian: false)
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            encoding = .utf16(bigEndian: true)
        } else {
            encoding = .utf8(bomLength: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        }
    }

    /// The 1-based mark of the character starting at `offset` bytes into the input, counting lines as libyaml does.
    func mark(atByteOffset offset: Int) -> YAMLMark {
        let end = min(max(offset, 0), bytes.count)
        var counter = LineCounter()
        switch encoding {
        case .utf8(let bomLength):
            guard bomLength < end else { break }
            var units = bytes[bomLength..<end].makeIterator()
            var codec = UTF8()
            Self.decode(&units, with: &codec, into: &counter)
        case .utf16(let bigEndian):
            let bytes = self.bytes
            var units = stride(from: 2, to: end - 1, by: 2).lazy.map { index in
                let (high, low) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
                return UInt16(high) << 8 | UInt16(low)
            }.makeIterator()
            var codec = UTF16()
            Self.decode(&units, with: &codec, into: &counter)
        }
        return YAMLMark(line: counter.line + 1, column: counter.column + 1)
    }

    /// The Unicode scalar at libyaml's character `index`, or nil past the end or for non-UTF-8 input.
    func scalar(atIndex index: Int) -> Unicode.Scalar? {
        guard let offset = byteOffset(ofIndex: index), offset < bytes.count else { return nil }
        var units = bytes[offset...].makeIterator()
        var codec = UTF8()
        if case .scalarValue(let scalar) = codec.decode(&units) {
            return scalar
        }
        return nil
    }

    /// Whether libyaml's character `index` is the end of the input, where libyaml reports constructs left open.
    /// False when unsure (non-UTF-8 input).
    func isEnd(index: Int) -> Bool {
        byteOffset(ofIndex: index) == bytes.count
    }

    /// The byte offset of libyaml's character `index` in UTF-8 input (a BOM is not counted, as libyaml skips it).
    private func byteOffset(ofIndex index: Int) -> Int? {
        guard case .utf8(let bomLength) = encoding, index >= 0 else { return nil }
        var seen = 0
        for offset in bomLength..<bytes.count where bytes[offset] & 0xC0 != 0x80 {
            if seen == index {
                return offset
            }
            seen += 1
        }
        return seen == index ? bytes.count : nil
    }

    private static func decode<Codec: UnicodeCodec, Units: IteratorProtocol>(
        _ units: inout Units,
        with codec: inout Codec,
        into counter: inout LineCounter
    ) where Units.Element == Codec.CodeUnit {
        while true {
            switch codec.decode(&units) {
            case .scalarValue(let scalar): counter.advance(over: scalar)
            case .error: counter.advance(over: "\u{FFFD}")
            case .emptyInput: return
            }
        }
    }

    /// libyaml's line counting: CR LF is one break; CR, LF, NEL, LS and PS each end a line.
    private struct LineCounter {
        var line = 0
        var column = 0
        private var afterCarriageReturn = false

        mutating func advance(over scalar: Unicode.Scalar) {
            defer { afterCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\n" where afterCarriageReturn:
                return
            case "\r", "\n", "\u{85}", "\u{2028}", "\u{2029}":
                line += 1
                column = 0
            default:
                column += 1
            }
        }
    }
}
