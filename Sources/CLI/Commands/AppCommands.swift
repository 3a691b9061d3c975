import Config
import Control
import FoundationEssentials
import Providers
import Runtime
import Store
import Text
import TimeZones

/// The CLI as the app: edits the shared store in one transaction per command, then tells a running daemon
/// to reload the kind (the seed's `WidgetCenter.shared.reloadTimelines(ofKind:)`).
enum AppCommands {
    /// The glyphs the app prints: a terminal's font is the user's, so the ones every font has.
    static let symbols = Symbols.text

    /// How long a command waits for another process's lock on the store (a `sqlite3` shell in `BEGIN EXCLUSIVE`)
    /// before it gives up with nothing changed: without a deadline each retry waited SQLite's busy timeout again, and a
    /// click handler sat silent for 46 s.
    static let lockWait: TimeInterval = 10

    static func run(
        _ command: AppCommand, store access: StoreAccess, configPath: String, environment: [String: String],
        console: Console
    ) -> Int32 {
        StoreDeadline.$current.withValue(Date().addingTimeInterval(lockWait)) {
            runUntilDeadline(command, store: access, configPath: configPath, environment: environment, console: console)
        }
    }

    private static func runUntilDeadline(
        _ command: AppCommand, store access: StoreAccess, configPath: String, environment: [String: String],
        console: Console
    ) -> Int32 {
        do {
            let store = try access.open()
            let zone = Zone.current
            switch command {
            case .motivationsList:
                list(try store.motivations.all(), zone: zone, console: console)
            case .motivationsSearch(let text):
                let found = try store.motivations.matching(text)
                guard !found.isEmpty else {
                    console.err("widgetd: error: no motivation matches '\(TerminalText.escaped(text))'")
                    return ExitCode.failure
                }
                list(found, zone: zone, console: console)
            case .motivationsAdd(let message):
                let added: Motivation
                if let message {
                    added = try store.motivations.add(message: message)
                } else {
                    guard let sample = try store.motivations.addSample() else {
                        console.err(
                            "widgetd: all \(Motivation.samples.count) sample motivations are stored already; "
                                + "give one of your own: widgetd motivations add MESSAGE")
                        return ExitCode.failure
                    }
                    added = sample
                }
                console.out("added \(short(added.id))  \(TerminalText.escaped(added.message ?? ""))")
                reload("motivations", configPath: configPath, environment: environment)
            case .motivationsRemove(let ids):
                for removed in try store.motivations.remove(ids: ids) {
                    console.out("removed \(short(removed.id))  \(TerminalText.escaped(removed.message ?? ""))")
                }
                reload("motivations", configPath: configPath, environment: environment)
            case .motivationsFavorite(let id):
                let toggled = try store.motivations.toggleFavorite(id: id)
                console.out(
                    "\(toggled.isFavorite ? "\(symbols.favorite) favourite" : "\(symbols.notFavorite) no longer favourite"): "
                        + "\(short(toggled.id))  "
                        + TerminalText.escaped(toggled.message ?? ""))
                reload("motivations", configPath: configPath, environment: environment)
            case .motivationsColor(let id, let hex):
                let changed = try store.motivations.setColor(id: id, hex: hex)
                console.out(
                    "\(short(changed.id))  \(changed.backgroundColorHex)  \(TerminalText.escaped(changed.message ?? ""))"
                )
                reload("motivations", configPath: configPath, environment: environment)
            case .todosList:
                let todos = try store.todos.all()
                if todos.isEmpty { console.out(TodosKind.emptyText) }
                for todo in todos {
                    console.out(
                        "\(todo.completed ? symbols.done : symbols.open)  \(short(todo.id))  \(TerminalText.escaped(todo.title))"
                    )
                }
            case .todosAdd(let title):
                let added = try store.todos.add(title: title)
                console.out("added \(short(added.id))  \(TerminalText.escaped(added.title))")
                reload("todos", configPath: configPath, environment: environment)
            case .todosToggle(let reference):
                let toggled = try store.todos.toggle(titleOrID: reference)
                console.out(
                    "\(toggled.completed ? "\(symbols.done) done" : "\(symbols.open) open again"): "
                        + TerminalText.escaped(toggled.title))
                reload("todos", configPath: configPath, environment: environment)
            case .todosRemove(let reference):
                let removed = try store.todos.remove(titleOrID: reference)
                console.out("removed \(short(removed.id))  \(TerminalText.escaped(removed.title))")
                reload("todos", configPath: configPath, environment: environment)
            case .entities(_, let match):
                let found = try match.map { try store.motivations.matching($0) } ?? store.motivations.suggested()
                guard !found.isEmpty else {
                    console.err(
                        "widgetd: error: no motivation"
                            + (match.map { " matches '\(TerminalText.escaped($0))'" } ?? " is stored yet"))
                    return ExitCode.failure
                }
                for motivation in found {
                    console.out(
                        "\(motivation.id)  \(motivation.isFavorite ? symbols.favorite + " " : "")\(TerminalText.escaped(motivation.message ?? ""))"
                    )
                }
                console.out("")
                console.out("In widgets.yaml:  intent: {motivation: \(short(found[0].id))}")
            }
            return ExitCode.success
        } catch let error as StoreError where error.sqliteCode != nil {
            // SQLite's own messages do not say which file; a lock says what was left undone.
            let locked = error.isBusy ? "; another process holds it, and nothing was changed" : ""
            console.err("widgetd: error: \(access.path): \(error)\(locked)")
            return ExitCode.failure
        } catch {
            console.err("widgetd: error: \(shown(error))")
            return ExitCode.failure
        }
    }

    /// `error` as printed: an ambiguous reference lists its candidates one per line, so their labels, which are the
    /// store's text, are escaped as every other record the app prints.
    static func shown(_ error: any Error) -> any Error {
        guard case .ambiguous(let reference, let candidates) = error as? StoreError else { return error }
        return StoreError.ambiguous(
            reference, candidates.map { StoreError.Candidate(id: $0.id, label: TerminalText.escaped($0.label)) })
    }

    /// The id prefix lists show: long enough to be unique in any realistic store, short enough to type.
    static func short(_ id: String) -> String {
        String(id.prefix(8))
    }

    private static func list(_ motivations: [Motivation], zone: Zone, console: Console) {
        if motivations.isEmpty {
            console.out("No motivations yet: widgetd motivations add [MESSAGE]")
        }
        for motivation in motivations {
            let star = motivation.isFavorite ? symbols.favorite : symbols.notFavorite
            let stamp = MotivationsKind.timestampText(motivation.timestamp, in: zone)
            console.out(
                "\(short(motivation.id))  \(star)  \(motivation.backgroundColorHex)  \(stamp)  "
                    + (motivation.message.map(TerminalText.escaped) ?? "(no message)"))
        }
    }

    /// Tells a running daemon the kind's data changed; with no daemon there is nothing to tell.
    private static func reload(_ kind: String, configPath: String, environment: [String: String]) {
        let paths = DaemonPaths(environment: environment, settings: ConfigLoader.settings(path: configPath))
        try? ControlClient.send(ControlCommand(.reload(.kind(kind))), fifo: paths.control.fifo)
    }
}
