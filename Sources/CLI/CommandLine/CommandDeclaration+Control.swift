import Control
import Kind
import Timelines

/// The commands that send the running daemon a control line: `reload`, `click` and `intent`. Each reads the config the
/// daemon runs, for the widget it names and the kinds' plugins.
extension CommandDeclaration {
    static var reload: CommandDeclaration {
        CommandDeclaration(
            name: .reload, summary: "Ask the daemon for new timelines.",
            overview: """
                Ask the daemon for new timelines: of every widget (all, the default), of one kind, or of
                one instance. Exits 1 when no daemon runs.
                """,
            usageArguments: "[all | {--kind} | NAME]",
            arguments: [("all | NAME", "Every widget, or the instance NAME.")],
            options: [
                .valued("--kind", "KIND", "Every widget of KIND (WidgetKit's reloadTimelines(ofKind:))."),
                .flag(
                    "--wait",
                    "Return once the new entries are written and print each widget's new text (NAME: TEXT for all or "
                        + "--kind); exit 1 with the reason when a reload or writing its files failed.",
                    joinsNext: .optionallyWith),
                .valued("--timeout", "SECONDS", "How long --wait waits: 0.001 to 86400 (default 10)."),
                .config(),
            ],
            readsConfig: true, parse: parseReload)
    }

    static var click: CommandDeclaration {
        CommandDeclaration(
            name: .click, summary: "Click a widget, as a bar would.",
            overview: """
                Click a widget as a bar would: the daemon runs what the widget's on_click: binds to the
                button, else its kind's default (a motivation's left click toggles its favourite).
                """,
            usageArguments: "NAME", arguments: [("NAME", "The widget instance.")],
            options: [
                .valued("--button", "N", "1 left (default), 2 middle, 3 right, 4 scroll up, 5 scroll down."),
                .valued(
                    "--x", "X", "Where the click landed in the block, in pixels, as i3bar reports it.", joinsNext: .and),
                .valued("--width", "W", "The block's width, in pixels, as i3bar reports it; given with --x."),
                .valued("--y", "Y", "How far down the block it landed (i3bar's relative_y)."),
                .valued("--height", "H", "The block's height (i3bar's height)."),
                .valued("--screen-x", "X", "Where on the screen it landed (i3bar's x; i3blocks' BLOCK_X)."),
                .valued("--screen-y", "Y", "Where on the screen it landed (i3bar's y; i3blocks' BLOCK_Y)."),
                .valued("--modifiers", "KEYS", "Modifier keys held, separated by commas: Shift,Mod4."),
                .flag(
                    "--wait",
                    "Return once the widget shows the result and print what it shows; exit 1 with the reason when "
                        + "nothing is bound to the button, its program could not start (not found, no display) or its "
                        + "intent failed."),
                .config(),
            ],
            readsConfig: true, parse: parseClick)
    }

    static var intent: CommandDeclaration {
        CommandDeclaration(
            name: .intent, summary: "Run one of a widget's intents.",
            overview: """
                Run an intent of a widget's kind (WidgetKit's interactive AppIntent); 'widgetd kinds'
                lists each kind's intents and their parameters. The widgets of the kind reload after.
                """,
            usageArguments: "NAME INTENT [KEY=VALUE ...]",
            arguments: [
                ("NAME", "The widget instance."), ("INTENT", "The intent, e.g. toggle-favorite."),
                ("KEY=VALUE", "The intent's parameters, typed as it declares them."),
            ],
            options: [
                .flag(
                    "--wait",
                    "Return once the widget shows the result and print what it shows; exit 1 with the reason when the "
                        + "intent failed."),
                .config(),
            ],
            readsConfig: true, parse: parseIntent)
    }

    private static func parseReload(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .reload)
        var target: ReloadTarget?
        var wait = false
        var timeout: Double?
        var configPath: String?
        func setTarget(_ new: ReloadTarget) throws(UsageError) {
            guard target == nil else {
                throw UsageError("Name one target: all, --kind KIND, or NAME.", command: .reload)
            }
            target = new
        }
        while let token = try scanner.next() {
            switch token {
            case .option("--kind", let inline):
                try setTarget(.kind(try scanner.value(of: "--kind", inline: inline)))
            case .option("--wait", _):
                wait = true
            case .option("--timeout", let inline):
                let text = try scanner.value(of: "--timeout", inline: inline)
                // A wait is counted in whole milliseconds: a day is plenty, and far from what overflows them.
                guard let seconds = Double(text), (0.001...86_400).contains(seconds) else {
                    throw UsageError(
                        "--timeout needs a number of seconds from 0.001 to 86400, found '\(text)'.", command: .reload)
                }
                timeout = seconds
            case .positional("all"):
                try setTarget(.all)
            case .positional(let name):
                try setTarget(.instance(name))
            default:
                try scanner.takeShared(token, configPath: &configPath)
            }
        }
        // Accepted alone, it would be ignored: the user meant to wait and would not.
        if timeout != nil, !wait {
            throw UsageError("--timeout is how long --wait waits: give --wait too.", command: .reload)
        }
        return .reload(target: target ?? .all, wait: wait, timeout: timeout, configPath: configPath)
    }

    private static func parseClick(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .click)
        var instance: String?
        var button = 1
        var relativeX: Int?
        var width: Int?
        var details = ControlCommand.ClickDetails()
        var wait = false
        var configPath: String?
        func number(_ option: String, _ inline: String?, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
            let text = try scanner.value(of: option, inline: inline)
            guard let value = Int(text), range.contains(value) else {
                throw UsageError(
                    "\(option) needs a number from \(range.lowerBound) to \(range.upperBound), found '\(text)'.",
                    command: .click)
            }
            return value
        }
        while let token = try scanner.next() {
            switch token {
            case .option("--button", let inline): button = try number("--button", inline, 1...5)
            case .option("--x", let inline): relativeX = try number("--x", inline, 0...100_000)
            case .option("--width", let inline): width = try number("--width", inline, 1...100_000)
            case .option("--y", let inline): details.relativeY = try number("--y", inline, 0...100_000)
            case .option("--height", let inline): details.height = try number("--height", inline, 1...100_000)
            case .option("--screen-x", let inline): details.x = try number("--screen-x", inline, -1_000_000...1_000_000)
            case .option("--screen-y", let inline): details.y = try number("--screen-y", inline, -1_000_000...1_000_000)
            case .option("--modifiers", let inline):
                let text = try scanner.value(of: "--modifiers", inline: inline)
                // Empty names are kept so that "Shift,,Mod4" and "Shift," are refused below, not quietly mended.
                details.modifiers = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard details.modifiers.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber } })
                else {
                    throw UsageError(
                        "--modifiers needs key names separated by commas, such as Shift,Mod4, found '\(text)'.",
                        command: .click)
                }
            case .option("--wait", _):
                wait = true
            default:
                try scanner.takeShared(token, configPath: &configPath, name: &instance)
            }
        }
        guard let instance else { throw UsageError("Missing NAME; 'widgetd list' shows them.", command: .click) }
        guard (relativeX == nil) == (width == nil) else {
            throw UsageError("Give both --x and --width, or neither.", command: .click)
        }
        // As the control line's parser refuses it, but here, so it is the usage error it is (64), not a failure.
        if let relativeX, let width, relativeX > width {
            throw UsageError("--x \(relativeX) is outside the block's --width \(width).", command: .click)
        }
        return .click(
            instance: instance, button: button, relativeX: relativeX, width: width, details: details, wait: wait,
            configPath: configPath)
    }

    private static func parseIntent(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .intent)
        var words: [String] = []
        var wait = false
        var configPath: String?
        while let token = try scanner.next() {
            switch token {
            case .option("--wait", _):
                wait = true
            case .positional(let word):
                words.append(word)
            default:
                try scanner.takeShared(token, configPath: &configPath)
            }
        }
        guard words.count >= 2 else {
            throw UsageError("Missing \(words.isEmpty ? "NAME and INTENT" : "INTENT").", command: .intent)
        }
        var parameters: [ParameterSetting] = []
        for word in words.dropFirst(2) {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw UsageError("Expected KEY=VALUE, found '\(word)'.", command: .intent)
            }
            parameters.append(
                ParameterSetting(key: String(word[..<equals]), value: String(word[word.index(after: equals)...])))
        }
        return .intent(instance: words[0], intent: words[1], parameters: parameters, wait: wait, configPath: configPath)
    }
}
