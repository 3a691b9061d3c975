import Store
import Text

/// The app commands, which edit the shared store as a widget's app does: `motivations`, `todos` and `entities`. They
/// read widgets.yaml for the store its settings name when no daemon runs (`StoreLocation`), and for where to send the
/// reload they ask for.
extension CommandDeclaration {
    static var motivations: CommandDeclaration {
        CommandDeclaration(
            name: .motivations, summary: "Edit the motivations in the store.",
            overview: """
                Edit the motivations in the shared store, as a widget's app does, then ask a running
                daemon to reload the motivations widgets. Ids may be shortened to a unique prefix of 4 or
                more characters. 'add' with no MESSAGE stores one of the twenty samples not stored yet.
                """,
            usageArguments: "list | add [MESSAGE] | rm ID... | favorite ID | color ID HEX | search TEXT",
            arguments: [
                (
                    "list",
                    "Newest first, with short ids, ★ for favourites (☆ for the rest) and colours; control characters escaped."
                ),
                ("add [MESSAGE]", "Store a motivation (a sample when MESSAGE is left out; a blank one is refused)."),
                ("rm ID...", "Delete motivations."), ("favorite ID", "Toggle a favourite."),
                ("color ID HEX", "Set the background colour (#RGB, #RRGGBB or #RRGGBBAA)."),
                ("search TEXT", "Motivations whose message contains TEXT (ignoring case and accents)."),
            ],
            options: [.config(Help.configOptionHelp + "\nIts settings.store names the store.")], readsConfig: true,
            parse: { arguments throws(UsageError) in try parseApp(.motivations, arguments) })
    }

    static var todos: CommandDeclaration {
        CommandDeclaration(
            name: .todos, summary: "Edit the to-dos in the store.",
            overview: """
                Edit the to-dos in the shared store, then ask a running daemon to reload the to-dos
                widgets. A to-do is named by its title (ignoring case) or an id prefix. Of several with
                one title, the title names the oldest open one, or when all are done the one done last (so
                toggling twice undoes); an id names one whatever its title.
                """,
            usageArguments: "list | add TITLE | toggle TITLE-OR-ID | rm TITLE-OR-ID",
            arguments: [
                ("list", "In the order added, done or not (◉ done, ○ open), as the widget shows them."),
                ("add TITLE", "Add a to-do."), ("toggle TITLE-OR-ID", "Mark done, or open again."),
                ("rm TITLE-OR-ID", "Delete a to-do."),
            ],
            options: [.config(Help.configOptionHelp + "\nIts settings.store names the store.")], readsConfig: true,
            parse: { arguments throws(UsageError) in try parseApp(.todos, arguments) })
    }

    static var entities: CommandDeclaration {
        CommandDeclaration(
            name: .entities, summary: "Pick an entity for widgets.yaml.",
            overview: """
                The configuration picker: the entities a widget's entity parameter can name, with the ids to
                paste into widgets.yaml (WidgetKit's suggestedEntities and entities(matching:)).
                """,
            usageArguments: "motivations", arguments: [("motivations", "The entity type.")],
            options: [
                .valued("--match", "TEXT", "Only those matching TEXT (ignoring case and accents)."), .config(),
            ],
            readsConfig: true, parse: { arguments throws(UsageError) in try parseApp(.entities, arguments) })
    }

    /// `motivations ACTION …`, `todos ACTION …`, `entities KIND [--match TEXT]`: positional words plus
    /// `--config` (and `--match` for entities).
    private static func parseApp(_ name: CommandName, _ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var scanner = ArgumentScanner(arguments, command: name)
        var words: [String] = []
        var match: String?
        var configPath: String?
        while let token = try scanner.next() {
            switch token {
            case .option("--match", let inline):
                match = try scanner.value(of: "--match", inline: inline)
            case .positional(let word):
                words.append(word)
            default:
                try scanner.takeShared(token, configPath: &configPath)
            }
        }
        let app: AppCommand
        switch name {
        case .motivations: app = try motivationsCommand(words)
        case .todos: app = try todosCommand(words)
        default:
            guard words.count == 1, let kind = words.first else {
                throw UsageError(words.isEmpty ? "Missing KIND (motivations)." : "Give one KIND.", command: .entities)
            }
            guard kind == "motivations" else {
                throw UsageError("Kind '\(kind)' has no entities; 'motivations' has.", command: .entities)
            }
            app = .entities(kind: kind, match: match)
        }
        return .app(app, configPath: configPath)
    }

    private static func motivationsCommand(_ words: [String]) throws(UsageError) -> AppCommand {
        let actions = ["list", "add", "rm", "favorite", "color", "search"]
        guard let action = words.first else {
            throw UsageError("Missing ACTION: \(actions.joined(separator: ", ")).", command: .motivations)
        }
        let rest = Array(words.dropFirst())
        func exactly(_ count: Int, _ what: String) throws(UsageError) {
            guard rest.count == count else {
                throw UsageError("'motivations \(action)' takes \(what).", command: .motivations)
            }
        }
        switch action {
        case "list":
            try exactly(0, "no arguments")
            return .motivationsList
        case "add":
            guard !rest.isEmpty else { return .motivationsAdd(message: nil) }
            let message = rest.joined(separator: " ")
            guard !isBlank(message) else {
                throw UsageError(
                    "The MESSAGE is empty; write some text, or leave MESSAGE out to add a sample.",
                    command: .motivations)
            }
            return .motivationsAdd(message: message)
        case "rm":
            guard !rest.isEmpty else {
                throw UsageError("'motivations rm' takes one or more IDs.", command: .motivations)
            }
            return .motivationsRemove(ids: rest)
        case "favorite":
            try exactly(1, "one ID")
            return .motivationsFavorite(id: rest[0])
        case "color":
            try exactly(2, "an ID and a HEX colour")
            guard ColorHex.isValid(rest[1]) else {
                throw UsageError(
                    "'\(rest[1])' is not a colour; write #RGB, #RRGGBB or #RRGGBBAA.", command: .motivations)
            }
            return .motivationsColor(id: rest[0], hex: rest[1])
        case "search":
            guard !rest.isEmpty else { throw UsageError("'motivations search' takes TEXT.", command: .motivations) }
            return .motivationsSearch(text: rest.joined(separator: " "))
        default:
            let hint = Suggestion.didYouMean(action, in: actions, then: "actions: \(actions.joined(separator: ", "))")
            throw UsageError("Unknown action '\(action)'\(hint).", command: .motivations)
        }
    }

    private static func todosCommand(_ words: [String]) throws(UsageError) -> AppCommand {
        let actions = ["list", "add", "toggle", "rm"]
        guard let action = words.first else {
            throw UsageError("Missing ACTION: \(actions.joined(separator: ", ")).", command: .todos)
        }
        let text = words.dropFirst().joined(separator: " ")
        switch action {
        case "list":
            guard words.count == 1 else { throw UsageError("'todos list' takes no arguments.", command: .todos) }
            return .todosList
        case "add", "toggle", "rm":
            guard !isBlank(text) else {
                throw UsageError(
                    "'todos \(action)' takes \(action == "add" ? "a TITLE" : "a TITLE or ID").", command: .todos)
            }
            switch action {
            case "add": return .todosAdd(title: text)
            case "toggle": return .todosToggle(titleOrID: text)
            default: return .todosRemove(titleOrID: text)
            }
        default:
            let hint = Suggestion.didYouMean(action, in: actions, then: "actions: \(actions.joined(separator: ", "))")
            throw UsageError("Unknown action '\(action)'\(hint).", command: .todos)
        }
    }

    /// Empty, or only spaces, tabs and line breaks: nothing a widget could show.
    /// Nothing a bar would show: white space, zero-width spaces and joiners, control characters (which the renderer
    /// removes). A usage error, as white space alone was, so that `todos add` of a zero-width space exits 64 too (the
    /// store refused it with 1) and a motivation of two control characters is not stored to show as a blank widget.
    private static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .format
        }
    }
}
