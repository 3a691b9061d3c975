import Foundation
import TestSupport
import Testing

@testable import Control

/// A control line and the request it means.
struct GoodControlLine: Sendable, CustomTestStringConvertible {
    var line: String
    var command: ControlCommand
    /// How `command.line` writes it, when that differs from `line`.
    var rendered: String?

    init(_ line: String, _ action: ControlCommand.Action, ack: String? = nil, rendered: String? = nil) {
        self.line = line
        command = ControlCommand(action, acknowledgement: ack.flatMap(ControlCommand.AckToken.init))
        self.rendered = rendered
    }

    var testDescription: String { line }
}

/// A control line and the exact message that refuses it.
struct BadControlLine: Sendable, CustomTestStringConvertible {
    var line: String
    var message: String

    init(_ line: String, _ message: String) {
        self.line = line
        self.message = message
    }

    var testDescription: String { line }
}

@Suite("control commands")
struct ControlCommandTests {
    static let good: [GoodControlLine] = [
        GoodControlLine("reload all", .reload(.all)),
        GoodControlLine("reload kind quotes", .reload(.kind("quotes"))),
        GoodControlLine("reload focus_quote", .reload(.instance("focus_quote"))),
        GoodControlLine("reload \"all\"", .reload(.instance("all"))),
        GoodControlLine("reload \"kind\"", .reload(.instance("kind"))),
        GoodControlLine("config", .config),
        GoodControlLine("click todos 1", .click(instance: "todos", button: 1, relativeX: nil, width: nil)),
        GoodControlLine("click todos 3 40 120", .click(instance: "todos", button: 3, relativeX: 40, width: 120)),
        GoodControlLine("click todos 5 0 1", .click(instance: "todos", button: 5, relativeX: 0, width: 1)),
        GoodControlLine(
            "click cpu 1 10 80 x=1210 y=-4 relative_y=9 height=22 modifiers=Shift,Mod4",
            .click(
                instance: "cpu", button: 1, relativeX: 10, width: 80,
                details: .init(x: 1210, y: -4, relativeY: 9, height: 22, modifiers: ["Shift", "Mod4"]))),
        GoodControlLine(
            "click cpu 2 x=5", .click(instance: "cpu", button: 2, relativeX: nil, width: nil, details: .init(x: 5))),
        GoodControlLine(
            "intent motivation toggle-favorite",
            .intent(instance: "motivation", intent: "toggle-favorite", parameters: [])),
        GoodControlLine(
            "intent todos toggle title=\"Buy milk\" id=3f2a",
            .intent(
                instance: "todos", intent: "toggle",
                parameters: [.init("title", "Buy milk"), .init("id", "3f2a")])),
        GoodControlLine(
            "intent todos toggle \"title=Buy milk\"",
            .intent(instance: "todos", intent: "toggle", parameters: [.init("title", "Buy milk")]),
            rendered: "intent todos toggle title=\"Buy milk\""),
        GoodControlLine(
            #"intent q next text="say \"hi\"\\n" empty="" eq=a=b"#,
            .intent(
                instance: "q", intent: "next",
                parameters: [.init("text", "say \"hi\"\\n"), .init("empty", ""), .init("eq", "a=b")])),
        GoodControlLine(
            #"intent q next multi="one\ntwo\tthree\r""#,
            .intent(instance: "q", intent: "next", parameters: [.init("multi", "one\ntwo\tthree\r")])),
        GoodControlLine(
            "intent q next path=C:\\x",
            .intent(instance: "q", intent: "next", parameters: [.init("path", "C:\\x")]),
            rendered: #"intent q next path="C:\\x""#),
        GoodControlLine(
            "intent q next word=ünïcødé✓",
            .intent(instance: "q", intent: "next", parameters: [.init("word", "ünïcødé✓")])),
        GoodControlLine("  reload \t all  ", .reload(.all), rendered: "reload all"),
        GoodControlLine("reload all ack=abc-123_XYZ", .reload(.all), ack: "abc-123_XYZ"),
        GoodControlLine("reload kind quotes ack=t", .reload(.kind("quotes")), ack: "t"),
        GoodControlLine(
            "config ack=" + String(repeating: "a", count: 64), .config, ack: String(repeating: "a", count: 64)),
        GoodControlLine(
            "click todos 1 10 100 ack=k", .click(instance: "todos", button: 1, relativeX: 10, width: 100), ack: "k"),
        GoodControlLine(
            "intent todos toggle title=x ack=k",
            .intent(instance: "todos", intent: "toggle", parameters: [.init("title", "x")]), ack: "k"),
    ]

    @Test(arguments: good)
    func goodLinesParse(_ good: GoodControlLine) throws {
        #expect(try ControlCommand.parse(good.line) == good.command)
        #expect(good.command.line == (good.rendered ?? good.line))
        #expect(try ControlCommand.parse(good.command.line) == good.command)
    }

    /// `reload NAME` lines take a short path past the word splitter (`plainReloadName`): it must read every line it takes
    /// exactly as the splitter does, and leave every other line, bad ones included, to the splitter.
    @Test(arguments: [
        "reload q0", "reload focus_quote", "reload a-b_C9", "reload " + String(repeating: "n", count: 64),
        "reload all", "reload kind", "reload kind quotes", "reload \"all\"", "reload q0 ack=t", "reload  q0",
        "reload\tq0", "reload q0 ", " reload q0", "reload -q0", "reload ünï", "reload a=b", "reload q0\r", "reload ",
        "reload", "Reload q0", "reload " + String(repeating: "n", count: 65), "reload \"q0\"",
    ])
    func aPlainReloadLineReadsAsTheWordSplitterReadsIt(_ line: String) throws {
        let general = Result { () throws(ControlParseError) in try ControlCommand.parseWords(line) }
        if let name = ControlCommand.plainReloadName(line) {
            #expect(try general.get() == ControlCommand(.reload(.instance(name))))
        } else if case .success(let command) = general, command.acknowledgement == nil,
            case .reload(.instance(let name)) = command.action
        {
            // Lines the short path leaves alone still reach the same request through the splitter.
            #expect(line != "reload " + name, "'\(line)' should have taken the short path")
        }
        #expect(
            (try? ControlCommand.parse(line)) == (try? general.get()),
            "parse gives what the word splitter gives")
    }

    static let bad: [BadControlLine] = [
        BadControlLine("", "empty line"),
        BadControlLine(
            "click cpu 1 z=3",
            "a click has no detail 'z'; did you mean 'x'? details: x, y, relative_y, height, modifiers"),
        BadControlLine("click cpu 1 x=1 x=2", "click detail 'x' is given twice"),
        BadControlLine("click cpu 1 x=left", "x must be a whole number, not 'left'"),
        BadControlLine("click cpu 1 modifiers=a;b", "modifiers must be names separated by commas, such as Shift,Mod4"),
        BadControlLine("   ", "empty line"),
        BadControlLine("relaod all", "unknown command 'relaod'; did you mean 'reload'?"),
        BadControlLine("Reload all", "unknown command 'Reload'; did you mean 'reload'?"),
        BadControlLine("clik todos 1", "unknown command 'clik'; did you mean 'click'?"),
        BadControlLine("frobnicate", "unknown command 'frobnicate'; commands are reload, click, intent, config"),
        BadControlLine("ack=x", "unknown command 'ack=x'; commands are reload, click, intent, config"),
        BadControlLine("reload", "reload needs 'all', 'kind KIND' or a widget NAME"),
        BadControlLine("reload kind", "reload kind needs KIND"),
        BadControlLine("reload all now", "unexpected 'now' after reload all"),
        BadControlLine("reload kind quotes todos", "unexpected 'todos' after reload kind quotes"),
        BadControlLine("reload a b", "unexpected 'b' after reload a"),
        BadControlLine(
            "reload -x", "widget name '-x' may use only letters, digits, '_' and '-', and may not start with '-'"),
        BadControlLine(
            "reload ../../etc",
            "widget name '../../etc' may use only letters, digits, '_' and '-', and may not start with '-'"),
        BadControlLine(
            "reload \"a b\"",
            "widget name 'a b' may use only letters, digits, '_' and '-', and may not start with '-'"),
        BadControlLine(
            "reload " + String(repeating: "n", count: 65),
            "widget name '" + String(repeating: "n", count: 40) + "…' is longer than 64 characters"),
        BadControlLine(
            "reload kind qu/otes",
            "kind name 'qu/otes' may use only letters, digits, '_' and '-', and may not start with '-'"),
        BadControlLine("config now", "unexpected 'now' after config"),
        BadControlLine("click", "click needs NAME and BUTTON"),
        BadControlLine("click todos", "click needs NAME and BUTTON"),
        BadControlLine("click todos 0", "button must be 1-5"),
        BadControlLine("click todos 6", "button must be 1-5"),
        BadControlLine("click todos left", "button must be 1-5"),
        BadControlLine("click todos -1", "button must be 1-5"),
        BadControlLine("click todos +1", "button must be 1-5"),
        BadControlLine("click todos 1 40", "click needs both RELATIVE_X and WIDTH, or neither"),
        BadControlLine("click todos 1 x 100", "relative x must be a whole number from 0, not 'x'"),
        BadControlLine("click todos 1 -4 100", "relative x must be a whole number from 0, not '-4'"),
        BadControlLine("click todos 1 4 0", "width must be a whole number from 1, not '0'"),
        BadControlLine("click todos 1 4 99999999999", "width must be a whole number from 1, not '99999999999'"),
        BadControlLine("click todos 1 120 100", "relative x 120 is outside the width 100"),
        BadControlLine("click todos 1 4 100 more", "unexpected 'more' after the width"),
        BadControlLine("intent", "intent needs NAME and INTENT"),
        BadControlLine("intent todos", "intent needs NAME and INTENT"),
        BadControlLine(
            "intent todos to.ggle",
            "intent name 'to.ggle' may use only letters, digits, '_' and '-', and may not start with '-'"),
        BadControlLine("intent todos toggle title", "parameter 'title' must be written key=value"),
        BadControlLine("intent todos toggle =x", "parameter '=x' has no name before '='"),
        BadControlLine("intent todos toggle a=1 a=2", "parameter 'a' is given twice"),
        BadControlLine("intent todos toggle ack=k title=x", "ack=TOKEN must come last"),
        BadControlLine(
            "intent todos toggle ti.tle=x",
            "parameter name 'ti.tle' may use only letters, digits, '_' and '-', and may not start with '-'"),
        BadControlLine("intent todos toggle title=\"Buy milk", "unterminated quote"),
        BadControlLine("intent todos toggle title=\"Buy\\", "unterminated quote"),
        BadControlLine(
            "intent todos toggle title=\"a\\qb\"", #"unknown escape '\q' in quotes; use \\, \", \n, \t or \r"#),
        BadControlLine("reload all ack=", "ack token '' must be 1-64 characters of letters, digits, '_' and '-'"),
        BadControlLine("reload all ack=a/b", "ack token 'a/b' must be 1-64 characters of letters, digits, '_' and '-'"),
        BadControlLine(
            "reload all ack=" + String(repeating: "a", count: 65),
            "ack token '" + String(repeating: "a", count: 40)
                + "…' must be 1-64 characters of letters, digits, '_' and '-'"),
        BadControlLine(
            "reload \u{1B}[31mred",
            "widget name '\\u{1B}[31mred' may use only letters, digits, '_' and '-', and may not start with '-'"),
    ]

    @Test(arguments: bad)
    func badLinesSayWhatIsWrong(_ bad: BadControlLine) {
        #expect(throws: ControlParseError(bad.message)) { try ControlCommand.parse(bad.line) }
    }

    @Test func commandsThatCannotBeLinesAreCaughtByTheirOwnParse() {
        // Built in code rather than parsed: the renderer writes them, the parser says what is wrong.
        let bad: [(ControlCommand.Action, String)] = [
            (
                .click(instance: "todos", button: 1, relativeX: 4, width: nil),
                "click needs both RELATIVE_X and WIDTH, or neither"
            ),
            (.click(instance: "todos", button: 9, relativeX: nil, width: nil), "button must be 1-5"),
            (
                .intent(instance: "t", intent: "i", parameters: [.init("a", "1"), .init("a", "2")]),
                "parameter 'a' is given twice"
            ),
            (
                .reload(.instance("a b")),
                "widget name 'a b' may use only letters, digits, '_' and '-', and may not start with '-'"
            ),
        ]
        for (action, message) in bad {
            #expect(throws: ControlParseError(message)) { try ControlCommand.parse(ControlCommand(action).line) }
        }
    }

    @Test func uniqueTokensAreValidAndDiffer() {
        let tokens = (0..<100).map { _ in ControlCommand.AckToken.unique() }
        #expect(Set(tokens).count == 100)
        for token in tokens { #expect(ControlCommand.AckToken(token.rawValue) == token) }
    }

    @Test(arguments: [7, 8, 9] as [UInt64])
    func randomTextNeverCrashesTheParser(seed: UInt64) throws {
        var random = SplitMix64(state: seed)
        let alphabet = Array("reload all kind click intent config ack= \"\\ntq=-_1230 \t\u{1B}é✓".unicodeScalars)
        for _ in 0..<5000 {
            var line = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0..<40, using: &random) {
                line.append(alphabet.randomElement(using: &random)!)
            }
            if let command = try? ControlCommand.parse(String(line)) {
                #expect(try ControlCommand.parse(command.line) == command, "round trip of \(String(line))")
            }
        }
    }
}
