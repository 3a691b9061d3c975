/// A `format:` with named placeholders, `{usage}` or `{percentage_used}`: letters, digits and `_` between braces.
/// Anything else, a lone `{` included, is text.
public struct PlaceholderFormat: Sendable, Hashable {
    enum Piece: Sendable, Hashable {
        case text(String)
        case placeholder(String)
    }

    let pieces: [Piece]

    public init(_ format: String) {
        var pieces: [Piece] = []
        var text = ""
        var rest = Substring(format)
        while let open = rest.firstIndex(of: "{") {
            text += rest[..<open]
            let afterOpen = rest.index(after: open)
            let name = rest[afterOpen...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            if !name.isEmpty, name.endIndex < rest.endIndex, rest[name.endIndex] == "}" {
                if !text.isEmpty { pieces.append(.text(text)) }
                text = ""
                pieces.append(.placeholder(String(name)))
                rest = rest[rest.index(after: name.endIndex)...]
            } else {
                text += "{"
                rest = rest[afterOpen...]
            }
        }
        text += rest
        if !text.isEmpty { pieces.append(.text(text)) }
        self.pieces = pieces
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
