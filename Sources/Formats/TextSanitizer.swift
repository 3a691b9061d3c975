import Basics

/// Makes text from providers and scripts safe to put on a bar.
///
/// A Swift `String` is always valid Unicode, so the dangers left are control characters: a newline ends a line in the
/// i3blocks, waybar and tmux formats and so would split one widget into fields or updates, NUL truncates C strings in
/// the bars, and ESC or C1 controls are terminal commands to tmux's status line. Terminal colour sequences that
/// scripts often print (`ESC[31m`) are removed whole, so no `[31m` is left behind to show.
///
/// Sanitizing never drops a widget: text made only of controls becomes "".
public enum TextSanitizer {
    /// Decodes script output, putting U+FFFD in place of each invalid UTF-8 sequence.
    public static func repair(bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// `text` on one line: newlines, tabs and the Unicode line and paragraph separators become a space (a run of them
    /// one space, and none at either end); every other control character and terminal escape sequence is removed.
    public static func singleLine(_ text: String) -> String {
        clean(text, keepingNewlines: false, mapping: []).text
    }

    /// `singleLine(text)`, and where each of `offsets` (UTF-8 offsets into `text`, ascending) lands in it: the offset
    /// at which what follows that point of `text` starts in the result, for styling part of a text.
    public static func singleLine(_ text: String, mapping offsets: [Int]) -> (text: String, offsets: [Int]) {
        clean(text, keepingNewlines: false, mapping: offsets)
    }

    /// `text` with its lines kept, for tooltips: CR LF, CR and the other line breaks become "\n" (blank lines stay,
    /// none lead or trail); tabs become a space and the other controls and escape sequences go as in `singleLine(_:)`.
    public static func multiLine(_ text: String) -> String {
        clean(text, keepingNewlines: true, mapping: []).text
    }

    /// Whether `text` has anything `clean` would change; most entries do not, so they are returned without a copy.
    /// Runs at every swap: the bytes are read through `withUTF8Bytes`, not `utf8`'s iterator (docs/PERFORMANCE.md,
    /// "Swap cost").
    private static func needsCleaning(_ text: String) -> Bool {
        text.withUTF8Bytes { bytes in
            var previous: UInt8 = 0
            var beforePrevious: UInt8 = 0
            for byte in bytes {
                if byte < 0x20 || byte == 0x7F
                    || (previous == 0xC2 && byte < 0xA0 && byte >= 0x80)
                    || (beforePrevious == 0xE2 && previous == 0x80 && (byte == 0xA8 || byte == 0xA9))
                {
                    return true
                }
                beforePrevious = previous
                previous = byte
            }
            return false
        }
    }

    /// Works on UTF-8 bytes: every character it removes or replaces is ASCII, a C1 control (`C2 80`…`C2 9F`) or
    /// U+2028/U+2029 (`E2 80 A8`/`A9`), and it only ever removes whole characters, so what it keeps stays valid.
    private static func clean(_ text: String, keepingNewlines: Bool, mapping offsets: [Int]) -> (
        text: String, offsets: [Int]
    ) {
        guard needsCleaning(text) else { return (text, offsets) }
        var text = text
        var mapped: [Int] = []
        mapped.reserveCapacity(offsets.count)
        let cleaned = text.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            // Breaks seen since the last kept character, written only when more text follows, so none lead or trail.
            var pendingNewlines = 0
            var pendingSpace = false
            var index = 0
            // Offsets at or before `index` land where the next kept character will be written.
            func map() {
                while mapped.count < offsets.count, offsets[mapped.count] <= index {
                    let pending = output.isEmpty ? 0 : pendingNewlines > 0 ? pendingNewlines : pendingSpace ? 1 : 0
                    mapped.append(output.count + pending)
                }
            }
            while index < bytes.count {
                map()
                let byte = bytes[index]
                var length = 1
                // nil: keep; false: a space-like break; true: a line break.
                var isLineBreak: Bool?
                var drop = false
                switch byte {
                case 0x1B:
                    index = endOfEscapeSequence(in: bytes, from: index)
                    continue
                case 0x0A, 0x0D:
                    isLineBreak = true
                    // CR LF is one line break, not two.
                    if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { length = 2 }
                case 0x09, 0x0B, 0x0C:
                    isLineBreak = false
                case 0x00..<0x20, 0x7F:
                    drop = true
                case 0xC2 where index + 1 < bytes.count && (0x80..<0xA0).contains(bytes[index + 1]):
                    length = 2
                    // NEL (U+0085) is a line break; the other C1 controls go.
                    if bytes[index + 1] == 0x85 { isLineBreak = true } else { drop = true }
                case 0xE2
                where index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    length = 3
                    isLineBreak = true
                default:
                    break
                }
                index += length
                if drop {
                    continue
                }
                if let isLineBreak {
                    if isLineBreak && keepingNewlines {
                        pendingNewlines += 1
                    } else {
                        pendingSpace = true
                    }
                    continue
                }
                if !output.isEmpty {
                    if pendingNewlines > 0 {
                        output.append(contentsOf: repeatElement(0x0A, count: pendingNewlines))
                    } else if pendingSpace {
                        output.append(0x20)
                    }
                }
                pendingNewlines = 0
                pendingSpace = false
                output.append(byte)
            }
            // What lies past the end, and breaks that trailed (never written), land at the end.
            while mapped.count < offsets.count { mapped.append(output.count) }
            mapped = mapped.map { min($0, output.count) }
            return output
        }
        return (String(decoding: cleaned, as: UTF8.self), mapped)
    }

    /// Where a sequence of `continuing` bytes closed by one `closing` byte ends, from `start`: after the final byte, or
    /// at the first byte outside the sequence's alphabet, which ends it and is kept.
    private static func endOfSequence(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, continuing: ClosedRange<UInt8>,
        closing: ClosedRange<UInt8>
    ) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if closing.contains(byte) { return index + 1 }
            if !continuing.contains(byte) { return index }
            index += 1
        }
        return index
    }

    /// The index after the escape sequence that starts with the ESC at `start` (ECMA-48 syntax).
    ///
    /// CSI (`ESC [`, parameters, intermediates, a final byte) is how scripts colour text; OSC, DCS, SOS, PM and APC
    /// strings run to BEL or `ESC \`; other escapes are intermediates, then one final byte. An unfinished sequence
    /// at the end of the text is dropped whole. Every byte a sequence can hold is ASCII, so a sequence never ends
    /// inside a multi-byte character (OSC strings skip whole characters until their ASCII terminator).
    private static func endOfEscapeSequence(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start + 1
        guard index < bytes.count else { return index }
        let introducer = bytes[index]
        index += 1
        switch introducer {
        case 0x5B:  // CSI: parameters and intermediates (0x20…0x3F), then a final byte (0x40…0x7E).
            return endOfSequence(in: bytes, from: index, continuing: 0x20...0x3F, closing: 0x40...0x7E)
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F:  // OSC, DCS, SOS, PM, APC: a string up to BEL or ST (`ESC \`).
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == 0x07 { return index }
                if byte == 0x1B, index < bytes.count, bytes[index] == 0x5C { return index + 1 }
            }
            return index
        case 0x20...0x2F:  // Intermediates, then a final byte (0x30…0x7E).
            return endOfSequence(in: bytes, from: index, continuing: 0x20...0x2F, closing: 0x30...0x7E)
        case 0x30...0x7E:  // A two-character escape such as `ESC 7` or `ESC c`.
            return index
        default:
            // ESC before something that cannot continue a sequence: only the ESC goes.
            return index - 1
        }
    }
}
