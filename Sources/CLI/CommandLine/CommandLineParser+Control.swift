import Control
import Kind
import Timelines

/// Parsing of the commands that send the daemon a control line: `reload`, `click` and `intent`.
extension CommandLineParser {
    static func parseReload(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
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
                guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                    throw UsageError("--timeout needs a positive number of seconds, found '\(text)'.", command: .reload)
                }
                timeout = seconds
            case .option("--config", let inline):
                configPath = try scanner.value(of: "--config", inline: inline)
            case .option(let option, _):
                throw scanner.unknown(option)
            case .positional("all"):
                try setTarget(.all)
            case .positional(let name):
                try setTarget(.instance(name))
            }
        }
        return .reload(target: target ?? .all, wait: wait, timeout: timeout, configPath: configPath)
    }

    static func parseClick(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
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
            case .option("--config", let inline):
                configPath = try scanner.value(of: "--config", inline: inline)
            case .option(let option, _):
                throw scanner.unknown(option)
            case .positional(let argument):
                guard instance == nil else { throw scanner.unexpected(argument) }
                instance = argument
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

    static func parseIntent(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: .intent)
        var words: [String] = []
        var wait = false
        var configPath: String?
        while let token = try scanner.next() {
            switch token {
            case .option("--wait", _):
                wait = true
            case .option("--config", let inline):
                configPath = try scanner.value(of: "--config", inline: inline)
            case .option(let option, _):
                throw scanner.unknown(option)
            case .positional(let word):
                words.append(word)
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
