/// The tokens of libconfuse's syntax, which i3status's config is written in (confuse's lexer.l).
struct I3statusTokenizer {
    struct Token: Equatable {
        enum Kind: Equatable {
            /// An unquoted word: `general`, `colors`, `true`, `5`, `_first_`.
            case word(String)
            /// A quoted string, its escapes read.
            case string(String)
            case open, close, comma, equals, plusEquals

            var description: String {
                switch self {
                case .word(let text): "'\(text)'"
                case .string(let text): "\"\(text)\""
                case .open: "'{'"
                case .close: "'}'"
                case .comma: "','"
                case .equals: "'='"
                case .plusEquals: "'+='"
                }
            }
        }

        var kind: Kind
        var line: Int
    }

    private var scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    /// The first thing that could not be read (an unterminated string or comment); reading stops there.
    private(set) var problem: String?

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    /// Characters that end an unquoted word, as confuse's lexer has them.
    private static let delimiters: Set<Unicode.Scalar> = ["{", "}", "=", ",", "+", "\"", "'", "#", "(", ")"]

    mutating func next() -> Token? {
        guard problem == nil else { return nil }
        skipSpaceAndComments()
        guard problem == nil, index < scalars.count else { return nil }
        let start = line
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case "{": return Token(kind: .open, line: start)
        case "}": return Token(kind: .close, line: start)
        case ",": return Token(kind: .comma, line: start)
        case "=": return Token(kind: .equals, line: start)
        case "+" where index < scalars.count && scalars[index] == "=":
            index += 1
            return Token(kind: .plusEquals, line: start)
        case "\"": return quoted(start: start)
        case "'": return singleQuoted(start: start)
        default:
            var word = String.UnicodeScalarView([scalar])
            while index < scalars.count, !Self.delimiters.contains(scalars[index]),
                !scalars[index].properties.isWhitespace
            {
                word.append(scalars[index])
                index += 1
            }
            return Token(kind: .word(String(word)), line: start)
        }
    }

    private mutating func skipSpaceAndComments() {
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" {
                line += 1
                index += 1
            } else if scalar.properties.isWhitespace {
                index += 1
            } else if scalar == "#" || (scalar == "/" && peek(1) == "/") {
                while index < scalars.count && scalars[index] != "\n" { index += 1 }
            } else if scalar == "/" && peek(1) == "*" {
                let start = line
                index += 2
                while index < scalars.count && !(scalars[index] == "*" && peek(1) == "/") {
                    if scalars[index] == "\n" { line += 1 }
                    index += 1
                }
                guard index < scalars.count else {
                    problem = "line \(start): comment '/*' is not closed"
                    return
                }
                index += 2
            } else {
                return
            }
        }
    }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    /// A double-quoted string: confuse reads `\n`, `\t`, `\r`, `\f`, `\b`, `\e`, `\"`, `\\`, `\'` and octal or
    /// `\xHH` escapes; any other backslash stands for the character after it.
    private mutating func quoted(start: Int) -> Token? {
        var text = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\"": return Token(kind: .string(String(text)), line: start)
            case "\n":
                line += 1
                text.append(scalar)
            case "\\" where index < scalars.count:
                let escaped = scalars[index]
                index += 1
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "f": text.append("\u{0C}")
                case "b": text.append("\u{08}")
                case "e": text.append("\u{1B}")
                case "x": text.append(number(radix: 16, first: nil, maximumDigits: 2))
                case "0"..."7": text.append(number(radix: 8, first: escaped, maximumDigits: 3))
                case "\n":
                    line += 1
                    text.append(escaped)
                default: text.append(escaped)
                }
            default: text.append(scalar)
            }
        }
        problem = "line \(start): string is not closed (a '\"' is missing)"
        return nil
    }

    /// `\x41`, `\101`: the character of that code.
    private mutating func number(radix: Int, first: Unicode.Scalar?, maximumDigits: Int) -> Unicode.Scalar {
        var digits = first.map { String($0) } ?? ""
        while digits.count < maximumDigits, index < scalars.count, Int(String(scalars[index]), radix: radix) != nil {
            digits.append(Character(scalars[index]))
            index += 1
        }
        return Unicode.Scalar(UInt8(Int(digits, radix: radix).map { $0 & 0xFF } ?? 0))
    }

    /// A single-quoted string: only `\'` and `\\` are escapes, as in confuse.
    private mutating func singleQuoted(start: Int) -> Token? {
        var text = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "'" { return Token(kind: .string(String(text)), line: start) }
            if scalar == "\n" { line += 1 }
            if scalar == "\\", let escaped = peek(0), escaped == "'" || escaped == "\\" {
                text.append(escaped)
                index += 1
            } else {
                text.append(scalar)
            }
        }
        problem = "line \(start): string is not closed (a \"'\" is missing)"
        return nil
    }
}
