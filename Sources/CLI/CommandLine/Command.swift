import Control
import Timelines

/// A parsed command line: what the user asked widgetd to do.
enum Command: Equatable {
    /// `widgetd help [COMMAND]`, `--help` anywhere: the help text of `topic`, or the overview.
    case help(topic: CommandName?)
    case version
    case check(configPath: String?)
    case kinds(configPath: String?)
    case preview(kind: String, family: String?, settings: [ParameterSetting], configPath: String?)
    case run(configPath: String?, logLevel: String?)
    case list(configPath: String?)
    case show(instance: String, format: String?, follow: Bool, configPath: String?)
    /// `widgetd bar`: an i3bar-protocol status command for the `--widgets` named, the `--bar` named, or all.
    case bar(widgets: [String]?, bar: String?, configPath: String?)
    case reload(target: ReloadTarget, wait: Bool, timeout: Double?, configPath: String?)
    case cron(expression: String, count: Int, from: String?, timeZone: String?)
    case click(
        instance: String, button: Int, relativeX: Int?, width: Int?,
        details: ControlCommand.ClickDetails = ControlCommand.ClickDetails(), wait: Bool, configPath: String?)
    case intent(instance: String, intent: String, parameters: [ParameterSetting], wait: Bool, configPath: String?)
    /// `import i3blocks [FILE] [--i3blocks-config PATH]`.
    case importI3blocks(file: String?, i3blocksOutput: String?)
    /// `import i3status [FILE]`.
    case importI3status(file: String?)
    /// `plugins [--config PATH]`: the plugins found, their versions and states.
    case plugins(configPath: String?)
    /// The app: `motivations …`, `todos …`, `entities …`.
    case app(AppCommand, configPath: String?)
    case status(configPath: String?)
    case doctor(configPath: String?)
    /// Hidden: man pages, completions, and the widget names completions offer.
    case generate(GenerateRequest)
}

/// The store commands: the CLI as the app that edits the shared store.
enum AppCommand: Equatable {
    case motivationsList
    case motivationsAdd(message: String?)
    case motivationsRemove(ids: [String])
    case motivationsFavorite(id: String)
    case motivationsColor(id: String, hex: String)
    case motivationsSearch(text: String)
    case todosList
    case todosAdd(title: String)
    case todosToggle(titleOrID: String)
    case todosRemove(titleOrID: String)
    case entities(kind: String, match: String?)
}

extension Command {
    /// The `--config` given, for the commands that take one.
    var configPath: String? {
        switch self {
        case .check(let path), .run(let path, _), .list(let path), .plugins(let path): path
        case .show(_, _, _, let path), .reload(_, _, _, let path): path
        case .bar(_, _, let path): path
        case .click(_, _, _, _, _, _, let path), .intent(_, _, _, _, let path), .app(_, let path): path
        case .status(let path), .doctor(let path), .generate(.names(let path)): path
        case .kinds(let path), .preview(_, _, _, let path): path
        case .help, .version, .cron, .importI3blocks, .importI3status, .generate: nil
        }
    }
}

/// A `--set key=value` of `widgetd preview`.
struct ParameterSetting: Equatable {
    var key: String
    var value: String
}

/// The subcommands, as typed; each has a `CommandDeclaration`.
enum CommandName: String, CaseIterable {
    case help
    case check
    case kinds
    case preview
    case run
    case list
    case show
    case bar
    case reload
    case cron
    case click
    case intent
    case importConfig = "import"
    case motivations
    case todos
    case entities
    case plugins
    case status
    case doctor
    case generate
}

/// A mistake in the command line: exit 64, the message, the usage line, and where to read more.
struct UsageError: Error, Equatable {
    var message: String
    /// The command whose usage line to print; nil for the top level.
    var command: CommandName?

    init(_ message: String, command: CommandName?) {
        self.message = message
        self.command = command
    }
}
