/// Pango markup as a script writes it (i3blocks' `markup=pango`): checked for well-formedness, reduced to its visible
/// text for bars that cannot show markup, and cut by the display width of what shows, never inside a tag or an
/// entity.
public enum PangoMarkup {
    /// One piece of markup: visible text (entities decoded), or a tag kept as written.
    enum Piece: Equatable {
        case text(String)
        case open(name: String, raw: Substring)
        case close(name: String)
    }

    /// The tags pango's markup parser knows (`pango-markup.c`); any other is an error there, and so here.
    static let tagNames: Set<String> = ["b", "big", "i", "s", "span", "sub", "sup", "small", "tt", "u", "markup"]

    /// True when pango would accept `markup`: known tags, properly nested and closed, quoted attributes, and `&` only
    /// as an entity.
    public static func isWellFormed(_ markup: String) -> Bool {
        pieces(of: markup) != nil
    }

    /// What shows: the text without tags, entities decoded. Malformed markup is taken as it stands.
    public static func plainText(_ markup: String) -> String {
        guard let pieces = pieces(of: markup) else { return markup }
        var text = ""
        for case .text(let part) in pieces { text += part }
        return text
    }

    /// `markup` cut so its visible text takes at most `budget` cells, with "…" as `DisplayWidth.truncate` cuts plain
    /// text; tags still open at the cut are closed. Markup that fits (or is malformed) comes back unchanged.
    public static func truncate(_ markup: String, toWidth budget: Int) -> String {
        guard let pieces = pieces(of: markup) else { return DisplayWidth.truncate(markup, toWidth: budget) }
        var plain = ""
        for case .text(let part) in pieces { plain += part }
        let cut = DisplayWidth.truncate(plain, toWidth: budget)
        guard cut != plain else { return markup }
        var keep = cut.hasSuffix(DisplayWidth.ellipsis) ? cut.count - 1 : cut.count
        var output: [UInt8] = []
        var open: [String] = []
        for piece in pieces {
            switch piece {
            case .open(let name, let raw):
                guard keep > 0 else { continue }
                output.append(contentsOf: raw.utf8)
                open.append(name)
            case .close(let name):
                guard !open.isEmpty, open.last == name else { continue }
                output.append(contentsOf: "</\(name)>".utf8)
                open.removeLast()
            case .text(let part):
                guard keep > 0 else { continue }
                let kept = String(part.prefix(keep))
                keep -= kept.count
                Escaping.appendPango(kept, to: &output)
                if keep == 0 { output.append(contentsOf: DisplayWidth.ellipsis.utf8) }
            }
        }
        // Closing tags after the cut were skipped only when their opening tag was kept; close what is left open.
        for name in open.reversed() { output.append(contentsOf: "</\(name)>".utf8) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The pieces of `markup`, or nil when pango would refuse it.
    static func pieces(of markup: String) -> [Piece]? {
        var pieces: [Piece] = []
        var stack: [String] = []
        var text = ""
        var index = markup.startIndex
        func flush() {
            if !text.isEmpty {
                pieces.append(.text(text))
                text = ""
            }
        }
        while index < markup.endIndex {
            let character = markup[index]
            if character == "<" {
                guard let end = markup[index...].firstIndex(of: ">") else { return nil }
                let inside = markup[markup.index(after: index)..<end]
                let raw = markup[index...end]
                flush()
                if inside.hasPrefix("/") {
                    let name = String(inside.dropFirst()).trimmingSpaces()
                    guard stack.last == name else { return nil }
                    stack.removeLast()
                    pieces.append(.close(name: name))
                } else {
                    guard let name = tagName(inside), attributesAreQuoted(inside.dropFirst(name.count)) else {
                        return nil
                    }
                    stack.append(name)
                    pieces.append(.open(name: name, raw: raw))
                }
                index = markup.index(after: end)
            } else if character == "&" {
                guard let end = markup[index...].firstIndex(of: ";"),
                    let decoded = entity(markup[markup.index(after: index)..<end])
                else { return nil }
                text.append(decoded)
                index = markup.index(after: end)
            } else {
                text.append(character)
                index = markup.index(after: index)
            }
        }
        flush()
        return stack.isEmpty ? pieces : nil
    }

    private static func tagName(_ inside: Substring) -> String? {
        let name = String(inside.prefix { $0.isLetter })
        return tagNames.contains(name) ? name : nil
    }

    /// ` key='value' key2="value"` and nothing else.
    private static func attributesAreQuoted(_ rest: Substring) -> Bool {
        var rest = rest
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { return true }
            let key = rest.prefix { $0.isLetter || $0 == "_" || $0 == "-" }
            guard !key.isEmpty else { return false }
            rest = rest.dropFirst(key.count)
            guard rest.first == "=" else { return false }
            rest = rest.dropFirst()
            guard let quote = rest.first, quote == "'" || quote == "\"" else { return false }
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: quote) else { return false }
            guard !rest[..<close].contains("<") else { return false }
            rest = rest[rest.index(after: close)...]
        }
    }

    private static func entity(_ name: Substring) -> Character? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init).map(Character.init)
        }
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
