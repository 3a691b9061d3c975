/// A `format:` with named placeholders, `{usage}` or `{percentage_used}`: letters, digits and `_` between braces.
/// Anything else, a lone `{` included, is text.
public struct PlaceholderFormat: Sendable, Hashable {
    enum Piece: Sendable, Hashable {
        case text(String)
        case placeholder(String)
    }

    let pieces: [Piece]

    public init(_ format: String) {
        // Read as UTF-8: every byte that matters is ASCII, and the kinds parse their format at every sample.
        var pieces: [Piece] = []
        let utf8 = format.utf8
        var textStart = utf8.startIndex
        var next = utf8.startIndex
        while let open = utf8[next...].firstIndex(of: UInt8(ascii: "{")) {
            let nameStart = utf8.index(after: open)
            let nameEnd = utf8[nameStart...].firstIndex { !Self.isNameByte($0) } ?? utf8.endIndex
            guard nameEnd > nameStart, nameEnd < utf8.endIndex, utf8[nameEnd] == UInt8(ascii: "}") else {
                next = nameStart
                continue
            }
            if textStart < open { pieces.append(.text(String(format[textStart..<open]))) }
            pieces.append(.placeholder(String(format[nameStart..<nameEnd])))
            textStart = utf8.index(after: nameEnd)
            next = textStart
        }
        if textStart < utf8.endIndex { pieces.append(.text(String(format[textStart...]))) }
        self.pieces = pieces
    }

    /// An ASCII letter, digit or `_`: what a placeholder's name is made of.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// The placeholders it names, in order.
    public var placeholders: [String] {
        pieces.compactMap { if case .placeholder(let name) = $0 { name } else { nil } }
    }

    /// The text with each placeholder replaced by its value; one without a value stays as written, so a typo shows.
    public func render(_ values: [String: String]) -> String {
        var result = ""
        for piece in pieces {
            switch piece {
            case .text(let text): result += text
            case .placeholder(let name): result += values[name] ?? "{\(name)}"
            }
        }
        return result
    }
}
