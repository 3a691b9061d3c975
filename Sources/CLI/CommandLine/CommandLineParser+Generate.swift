import Text

/// What `widgetd generate` prints.
enum GenerateRequest: Equatable {
    case manPage(ManPage.Name)
    case completion(CompletionScript.Shell)
    /// The widget names completions offer: the running daemon's config, else this one.
    case names(configPath: String?)
}

/// Parsing of the hidden `generate` command.
extension CommandLineParser {
    static func parseGenerate(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
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
            return .generate(.names(configPath: try parseConfigOption(rest, command: .generate)))
        default:
            let hint = Suggestion.didYouMean(
                what, in: ["man", "completion", "names"], then: "man, completion or names")
            throw UsageError("Unknown item '\(what)'\(hint).", command: .generate)
        }
    }
}
