import Glibc
import Kind
import Text
import Timelines

/// Why a control line is not a request, worded for the daemon's log and the CLI's stderr.
public struct ControlParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// One request on the control FIFO (DESIGN §4), and an optional token to acknowledge it with.
///
/// The FIFO speaks one line per request:
///
///     reload all | reload kind KIND | reload NAME
///     click NAME BUTTON [RELATIVE_X WIDTH] [x=N] [y=N] [relative_y=N] [height=N] [modifiers=Shift,Mod4]
///     intent NAME INTENT [key=value …]
///     config
///
/// Words are separated by spaces or tabs. A word may contain double-quoted parts, for values with spaces
/// (`title="Buy milk"`); inside quotes `\\`, `\"`, `\n`, `\t` and `\r` are escapes. Quoting also lets a
/// widget called `all` or `kind` be reloaded by name: `reload "all"`.
///
/// Any line may end with `ack=TOKEN`: once the entries the request produced are written, the daemon creates
/// `<runtime dir>/acks/TOKEN`, which `widgetd reload --wait` waits for. `ack` is therefore not available as
/// an intent parameter name.
///
/// A struct holding an `Action` rather than an enum, so that the acknowledgement, which any request may
/// carry, is one field instead of one associated value per case.
public struct ControlCommand: Equatable, Sendable, CustomStringConvertible {
    /// What the request asks for.
    public enum Action: Equatable, Sendable {
        /// `reload all`, `reload kind KIND` or `reload NAME`: ask the target's providers for new timelines.
        case reload(ReloadTarget)
        /// `config`: re-read widgets.yaml.
        case config
        /// `click NAME BUTTON [RELATIVE_X WIDTH] [key=value …]`: a click as i3bar reports it; both or neither of the
        /// position and width, then what else the bar said (`ClickDetails`).
        case click(instance: String, button: Int, relativeX: Int?, width: Int?, details: ClickDetails = ClickDetails())
        /// `intent NAME INTENT [key=value …]`: run one of the instance's intents.
        case intent(instance: String, intent: String, parameters: [Parameter])
    }

    /// The rest of an i3bar click, which i3blocks 1.5 passes to a block under these names: the pointer's absolute
    /// position, its height within the block, the block's height, and the modifier keys held.
    public struct ClickDetails: Equatable, Sendable {
        public var x: Int?
        public var y: Int?
        public var relativeY: Int?
        public var height: Int?
        public var modifiers: [String]

        public init(x: Int? = nil, y: Int? = nil, relativeY: Int? = nil, height: Int? = nil, modifiers: [String] = []) {
            self.x = x
            self.y = y
            self.relativeY = relativeY
            self.height = height
            self.modifiers = modifiers
        }

        /// The line's keys, in the order `line` writes them.
        static let keys = ["x", "y", "relative_y", "height", "modifiers"]
    }

    /// One `key=value` of an intent, in the order written.
    public struct Parameter: Equatable, Sendable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// An acknowledgement token: 1 to 64 of `A-Z a-z 0-9 _ -`, so it is always a safe file name.
    public struct AckToken: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String

        /// The token `text`, or nil when it is empty, longer than 64 or has other characters.
        public init?(_ text: String) {
            guard (1...64).contains(text.utf8.count), text.utf8.allSatisfy(InstanceName.isNameByte) else {
                return nil
            }
            rawValue = text
        }

        /// A token no other request will use: this process's pid and 64 random bits.
        public static func unique() -> AckToken {
            let random = String(UInt64.random(in: .min ... .max), radix: 16)
            return AckToken("\(getpid())-\(random)")!
        }

        public var description: String { rawValue }
    }

    /// The words the command starts with, for "did you mean".
    public static let commandNames = ["reload", "click", "intent", "config"]
    /// Longest name of an instance, kind, intent or parameter, as widgets.yaml allows.
    public static let maximumNameLength = InstanceName.maximumLength

    public var action: Action
    /// When set, the daemon creates `<runtime dir>/acks/TOKEN` after the request's entries are written.
    public var acknowledgement: AckToken?

    public init(_ action: Action, acknowledgement: AckToken? = nil) {
        self.action = action
        self.acknowledgement = acknowledgement
    }

    public var description: String { line }

    // MARK: - Parsing

    /// The request on one control line (without its newline).
    ///
    /// - Throws: a `ControlParseError` whose message says what is wrong, such as
    ///   "unknown command 'relaod'; did you mean 'reload'?" or "button must be 1-5".
    public static func parse(_ line: String) throws(ControlParseError) -> ControlCommand {
        if let name = plainReloadName(line) { return ControlCommand(.reload(.instance(name))) }
        return try parseWords(line)
    }

    /// `parse` for any line: splits it into words, then reads them.
    static func parseWords(_ line: String) throws(ControlParseError) -> ControlCommand {
        var words = try Word.split(line)
        guard let command = words.first else { throw ControlParseError("empty line") }

        var acknowledgement: AckToken?
        if words.count > 1, let last = words.last, last.text.hasPrefix("ack=") {
            let token = String(last.text.dropFirst("ack=".count))
            guard let parsed = AckToken(token) else {
                throw ControlParseError(
                    "ack token \(show(token)) must be 1-64 characters of letters, digits, '_' and '-'")
            }
            acknowledgement = parsed
            words.removeLast()
        }
        let arguments = Array(words.dropFirst())

        let action: Action
        switch command.text {
        case "reload": action = try reload(arguments)
        case "config":
            try expectNoMore(arguments, from: 0, after: "config")
            action = .config
        case "click": action = try click(arguments)
        case "intent": action = try intent(arguments)
        default:
            let hint = Suggestion.closest(to: command.text, in: commandNames)
            throw ControlParseError(
                "unknown command \(show(command.text))"
                    + (hint.map { "; did you mean '\($0)'?" }
                        ?? "; commands are \(commandNames.joined(separator: ", "))"))
        }
        return ControlCommand(action, acknowledgement: acknowledgement)
    }

    /// The name in a line that is exactly `reload NAME` (one space, a valid name that is not `all` or `kind`), the line
    /// every bar's reload and `widgetd reload NAME` send; nil for any other line, which the word splitter reads.
    ///
    /// The same answer the general path gives (a name's bytes hold no space, tab, quote or `=`, so the line is two
    /// words and carries no `ack=`), without building the words: on the daemon's loop the splitter was most of a
    /// reload's parse, which runs before its file is written.
    static func plainReloadName(_ line: String) -> String? {
        let prefix = "reload ".utf8
        let utf8 = line.utf8
        guard utf8.count > prefix.count, utf8.count <= prefix.count + InstanceName.maximumLength,
            utf8.starts(with: prefix)
        else { return nil }
        let name = utf8.dropFirst(prefix.count)
        guard name.first != UInt8(ascii: "-"), name.allSatisfy(InstanceName.isNameByte) else { return nil }
        let text = String(Substring(name))
        return text == "all" || text == "kind" ? nil : text
    }

    private static func reload(_ arguments: [Word]) throws(ControlParseError) -> Action {
        guard let first = arguments.first else {
            throw ControlParseError("reload needs 'all', 'kind KIND' or a widget NAME")
        }
        switch (first.text, first.quoted) {
        case ("all", false):
            try expectNoMore(arguments, from: 1, after: "reload all")
            return .reload(.all)
        case ("kind", false):
            guard arguments.count >= 2 else { throw ControlParseError("reload kind needs KIND") }
            let kind = try name(arguments[1].text, what: "kind name")
            try expectNoMore(arguments, from: 2, after: "reload kind \(kind)")
            return .reload(.kind(kind))
        default:
            let instance = try name(first.text, what: "widget name")
            try expectNoMore(arguments, from: 1, after: "reload \(instance)")
            return .reload(.instance(instance))
        }
    }

    private static func click(_ arguments: [Word]) throws(ControlParseError) -> Action {
        guard arguments.count >= 2 else { throw ControlParseError("click needs NAME and BUTTON") }
        let instance = try name(arguments[0].text, what: "widget name")
        guard let button = number(arguments[1].text), (1...5).contains(button) else {
            throw ControlParseError("button must be 1-5")
        }
        // Positional words first (RELATIVE_X WIDTH), then key=value details.
        let positional = Array(arguments.dropFirst(2).prefix { !$0.text.contains("=") })
        let details = try clickDetails(Array(arguments.dropFirst(2 + positional.count)))
        guard !positional.isEmpty else {
            return .click(instance: instance, button: button, relativeX: nil, width: nil, details: details)
        }
        guard positional.count >= 2 else {
            throw ControlParseError("click needs both RELATIVE_X and WIDTH, or neither")
        }
        guard let relativeX = number(positional[0].text) else {
            throw ControlParseError("relative x must be a whole number from 0, not \(show(positional[0].text))")
        }
        guard let width = number(positional[1].text), width > 0 else {
            throw ControlParseError("width must be a whole number from 1, not \(show(positional[1].text))")
        }
        guard relativeX <= width else {
            throw ControlParseError("relative x \(relativeX) is outside the width \(width)")
        }
        try expectNoMore(positional, from: 2, after: "the width")
        return .click(instance: instance, button: button, relativeX: relativeX, width: width, details: details)
    }

    /// `x=N y=N relative_y=N height=N modifiers=A,B`, each at most once.
    private static func clickDetails(_ words: [Word]) throws(ControlParseError) -> ClickDetails {
        var details = ClickDetails()
        var seen: Set<String> = []
        for word in words {
            guard let equals = word.text.firstIndex(of: "=") else {
                throw ControlParseError("\(show(word.text)) after the click's details must be written key=value")
            }
            let key = String(word.text[..<equals])
            let value = String(word.text[word.text.index(after: equals)...])
            guard ClickDetails.keys.contains(key) else {
                throw ControlParseError(
                    "a click has no detail '\(key)'"
                        + Suggestion.didYouMean(
                            key, in: ClickDetails.keys, then: "details: " + ClickDetails.keys.joined(separator: ", ")))
            }
            guard seen.insert(key).inserted else { throw ControlParseError("click detail '\(key)' is given twice") }
            if key == "modifiers" {
                details.modifiers = value.split(separator: ",").map(String.init)
                guard details.modifiers.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber } })
                else { throw ControlParseError("modifiers must be names separated by commas, such as Shift,Mod4") }
                continue
            }
            // Absolute positions may be negative on a screen left of or above the first.
            guard let number = Int(value), (-1_000_000...1_000_000).contains(number) else {
                throw ControlParseError("\(key) must be a whole number, not \(show(value))")
            }
            switch key {
            case "x": details.x = number
            case "y": details.y = number
            case "relative_y": details.relativeY = number
            default: details.height = number
            }
        }
        return details
    }

    private static func intent(_ arguments: [Word]) throws(ControlParseError) -> Action {
        guard arguments.count >= 2 else { throw ControlParseError("intent needs NAME and INTENT") }
        let instance = try name(arguments[0].text, what: "widget name")
        let intent = try name(arguments[1].text, what: "intent name")
        var parameters: [Parameter] = []
        for word in arguments.dropFirst(2) {
            guard let equals = word.text.firstIndex(of: "=") else {
                throw ControlParseError("parameter \(show(word.text)) must be written key=value")
            }
            let key = String(word.text[..<equals])
            let value = String(word.text[word.text.index(after: equals)...])
            guard !key.isEmpty else { throw ControlParseError("parameter \(show(word.text)) has no name before '='") }
            guard key != "ack" else { throw ControlParseError("ack=TOKEN must come last") }
            _ = try name(key, what: "parameter name")
            guard !parameters.contains(where: { $0.name == key }) else {
                throw ControlParseError("parameter '\(key)' is given twice")
            }
            parameters.append(Parameter(key, value))
        }
        return .intent(instance: instance, intent: intent, parameters: parameters)
    }

    /// Checks a name the way widgets.yaml checks instance names: it becomes a file name and a FIFO word.
    private static func name(_ text: String, what: String) throws(ControlParseError) -> String {
        if let problem = InstanceName.problem(text) {
            throw ControlParseError("\(what) \(show(text)) \(problem)")
        }
        return text
    }

    /// `what` is only made when there is more: every `reload NAME` passes here.
    private static func expectNoMore(
        _ words: [Word], from index: Int, after what: @autoclosure () -> String
    ) throws(ControlParseError) {
        guard index < words.count else { return }
        throw ControlParseError("unexpected \(show(words[index].text)) after \(what())")
    }

    /// A whole number written in plain decimal digits (no sign, at most 9 digits, so no overflow).
    private static func number(_ text: String) -> Int? {
        guard (1...9).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(text)
    }

    /// `text` quoted for a message, with control characters escaped and long text cut, so that whatever a
    /// writer sends cannot garble the log or the terminal it is shown on.
    static func show(_ text: String) -> String {
        var shown = ""
        for (count, scalar) in text.unicodeScalars.enumerated() {
            if count == 40 {
                shown += "…"
                break
            }
            let value = scalar.value
            if value < 0x20 || (0x7F...0x9F).contains(value) {
                shown += "\\u{" + String(value, radix: 16, uppercase: true) + "}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return "'" + shown + "'"
    }
}

/// One word of a control line, after quotes and escapes are resolved.
private struct Word {
    var text: String
    /// Whether any of it was in quotes: a quoted `"all"` is a name, not the keyword.
    var quoted: Bool

    /// Splits `line` at unquoted spaces and tabs.
    static func split(_ line: String) throws(ControlParseError) -> [Word] {
        var words: [Word] = []
        var current: Word?
        var scalars = line.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case " ", "\t":
                if let word = current { words.append(word) }
                current = nil
            case "\"":
                var word = current ?? Word(text: "", quoted: false)
                word.quoted = true
                while true {
                    guard let inside = scalars.next() else { throw ControlParseError("unterminated quote") }
                    if inside == "\"" { break }
                    guard inside == "\\" else {
                        word.text.unicodeScalars.append(inside)
                        continue
                    }
                    switch scalars.next() {
                    case "\\": word.text += "\\"
                    case "\"": word.text += "\""
                    case "n": word.text += "\n"
                    case "t": word.text += "\t"
                    case "r": word.text += "\r"
                    case nil: throw ControlParseError("unterminated quote")
                    case let other?:
                        throw ControlParseError(
                            "unknown escape \(ControlCommand.show("\\" + String(other))) in quotes; "
                                + "use \\\\, \\\", \\n, \\t or \\r")
                    }
                }
                current = word
            default:
                var word = current ?? Word(text: "", quoted: false)
                word.text.unicodeScalars.append(scalar)
                current = word
            }
        }
        if let word = current { words.append(word) }
        return words
    }
}
