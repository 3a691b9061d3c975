/// An i3status config as i3status reads it, through libconfuse: `key = value` options, `order += "name"` lists,
/// sections `name [title] { … }` (`general`, `disk "/"`, `cpu_temperature 0`, `wireless _first_`), double-quoted
/// strings with backslash escapes, single-quoted strings taken as written, and `#`, `//` and `/* */` comments.
struct I3statusConfig: Equatable {
    /// One `key = value` (or `key += value`) in file order; a list (`{a, b}`) is its items.
    struct Option: Equatable {
        var key: String
        var values: [String]
        var line: Int
        var value: String { values.last ?? "" }
    }

    /// One section: `general`, or a module instance named as `order +=` names it (`disk /`, `tztime local`).
    struct Section: Equatable {
        var name: String
        var title: String?
        var line: Int
        var options: [Option]

        /// How `order +=` refers to the section: its name, a space, its title.
        var reference: String { title.map { "\(name) \($0)" } ?? name }
        func value(_ key: String) -> String? { options.last { $0.key == key }?.value }
    }

    var sections: [Section] = []
    /// The `order +=` entries, in file order.
    var order: [String] = []
    /// Top-level options other than `order` (i3status knows none; listed as not translated).
    var topLevel: [Option] = []
    /// What could not be read, with its line (as confuse would refuse it).
    var problems: [String] = []

    var general: Section? { sections.last { $0.name == "general" && $0.title == nil } }
    func section(_ reference: String) -> Section? {
        sections.last { $0.name != "general" && $0.reference == reference }
    }

    init(sections: [Section] = [], order: [String] = [], topLevel: [Option] = [], problems: [String] = []) {
        self.sections = sections
        self.order = order
        self.topLevel = topLevel
        self.problems = problems
    }

    /// Reads `text`; what cannot be read is a problem, and reading goes on at the next line.
    init(parsing text: String) {
        var tokens = I3statusTokenizer(text)
        var pending: [I3statusTokenizer.Token] = []
        func next() -> I3statusTokenizer.Token? { pending.isEmpty ? tokens.next() : pending.removeFirst() }
        func peek() -> I3statusTokenizer.Token? {
            if pending.isEmpty, let token = tokens.next() { pending.append(token) }
            return pending.first
        }
        /// Skips to the end of the line a problem was found on.
        func skipLine(_ line: Int) {
            while let token = peek(), token.line == line { _ = next() }
        }
        func readValue() -> [String]? {
            guard let token = next() else { return nil }
            switch token.kind {
            case .word(let text), .string(let text): return [text]
            case .open:
                var items: [String] = []
                while let item = next() {
                    switch item.kind {
                    case .close: return items
                    case .comma: continue
                    case .word(let text), .string(let text): items.append(text)
                    default: return nil
                    }
                }
                return nil
            default: return nil
            }
        }
        /// `key = value` after its key; nil (and a problem) when it is not one.
        func readOption(key: String, line: Int) -> (option: Option, appends: Bool)? {
            var appends = false
            switch peek()?.kind {
            case .equals: _ = next()
            case .plusEquals:
                _ = next()
                appends = true
            default: break
            }
            guard let values = readValue() else {
                problems.append("line \(line): option '\(key)' has no value")
                skipLine(line)
                return nil
            }
            return (Option(key: key, values: values, line: line), appends)
        }

        while let token = next() {
            if let problem = tokens.problem {
                problems.append(problem)
                break
            }
            guard case .word(let name) = token.kind else {
                problems.append("line \(token.line): unexpected \(token.kind.description)")
                skipLine(token.line)
                continue
            }
            var title: String?
            if case .word(let text)? = peek()?.kind {
                title = text
                _ = next()
            } else if case .string(let text)? = peek()?.kind {
                title = text
                _ = next()
            }
            if case .open? = peek()?.kind {
                _ = next()
                var section = Section(name: name, title: title, line: token.line, options: [])
                while let inner = next() {
                    if case .close = inner.kind { break }
                    guard case .word(let key) = inner.kind else {
                        problems.append("line \(inner.line): unexpected \(inner.kind.description) in '\(name)'")
                        skipLine(inner.line)
                        continue
                    }
                    if let (option, appends) = readOption(key: key, line: inner.line) {
                        if appends, let index = section.options.lastIndex(where: { $0.key == key }) {
                            section.options[index].values += option.values
                        } else {
                            section.options.append(option)
                        }
                    }
                }
                sections.append(section)
                continue
            }
            guard title == nil else {
                problems.append("line \(token.line): section '\(name) \(title!)' has no '{'")
                skipLine(token.line)
                continue
            }
            guard let (option, _) = readOption(key: name, line: token.line) else { continue }
            if name == "order" { order += option.values } else { topLevel.append(option) }
        }
        if let problem = tokens.problem, !problems.contains(problem) { problems.append(problem) }
    }
}
