import Text

/// What `widgetd generate` prints.
enum GenerateRequest: Equatable {
    case manPage(ManPage.Name)
    case completion(CompletionScript.Shell)
    /// The widget names completions offer: the running daemon's config, else this one.
    case names(configPath: String?)
}

/// The hidden `generate` command, for `scripts/install`, `scripts/package-deb` and the completions themselves. It reads
/// the config for its kinds' plugins, which the man pages and completions list, and `names` for its widgets.
extension CommandDeclaration {
    static var generate: CommandDeclaration {
        CommandDeclaration(
            name: .generate, summary: "Print a man page or a completion script.",
            overview: """
                Print a man page, a shell completion script or the active config's widget names, made from
                the same tables as --help, the parser and the config checker. Used by scripts/install,
                scripts/package-deb and the completions themselves.
                """,
            // `--config` belongs to `names` alone; `man` and `completion` take one word each.
            usageArguments: "man PAGE | completion SHELL | names [{--config}]",
            arguments: [
                ("man PAGE", "widgetd.1 or widgets.yaml.5, in roff."),
                ("completion SHELL", "bash, zsh or fish."),
                ("names", "The widget names of the running daemon's config, else of --config's."),
            ],
            options: [.config()], readsConfig: true, isHidden: true, parse: parseGenerate)
    }

    private static func parseGenerate(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        guard let what = arguments.first else {
            throw UsageError("Missing what to generate: man, completion or names.", command: .generate)
        }
        let rest = arguments.dropFirst()
        switch what {
        case "man":
            let names = ManPage.Name.allCases.map(\.rawValue)
            guard rest.count == 1, let page = rest.first.flatMap(ManPage.Name.init(rawValue:)) else {
                throw UsageError("Name one PAGE: \(names.joined(separator: ", ")).", command: .generate)
            }
            return .generate(.manPage(page))
        case "completion":
            let shells = CompletionScript.Shell.allCases.map(\.rawValue)
            guard rest.count == 1, let shell = rest.first.flatMap(CompletionScript.Shell.init(rawValue:)) else {
                throw UsageError("Name one SHELL: \(shells.joined(separator: ", ")).", command: .generate)
            }
            return .generate(.completion(shell))
        case "names":
            return .generate(.names(configPath: try CommandLineParser.parseConfigOption(rest, command: .generate)))
        default:
            let hint = Suggestion.didYouMean(
                what, in: ["man", "completion", "names"], then: "man, completion or names")
            throw UsageError("Unknown item '\(what)'\(hint).", command: .generate)
        }
    }
}
