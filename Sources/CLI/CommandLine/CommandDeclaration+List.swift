/// Every subcommand's declaration, in the order `widgetd help`, widgetd(1) and the completions list them.
extension CommandDeclaration {
    static var all: [CommandDeclaration] { CommandName.allCases.map(of) }

    /// The declarations a user sees: all but the hidden ones.
    static var visible: [CommandDeclaration] { all.filter { !$0.isHidden } }

    /// A switch, so that a command name without a declaration does not compile.
    static func of(_ name: CommandName) -> CommandDeclaration {
        switch name {
        case .help: help
        case .check: check
        case .kinds: kinds
        case .preview: preview
        case .run: run
        case .list: list
        case .show: show
        case .bar: bar
        case .reload: reload
        case .cron: cron
        case .click: click
        case .intent: intent
        case .importConfig: importConfig
        case .motivations: motivations
        case .todos: todos
        case .entities: entities
        case .plugins: plugins
        case .status: status
        case .doctor: doctor
        case .generate: generate
        }
    }
}
