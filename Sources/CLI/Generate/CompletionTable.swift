import Formats
import Kind
import Runtime
import Timelines

/// What a shell may complete after `widgetd`, made from each command's `CommandDeclaration`, the kind registry and the
/// `Family`, `OutputFormat` and `LogLevel` enums: the tables `--help`, the parser and the config checker use.
struct CompletionTable {
    /// What an option's value or a positional argument completes to.
    struct Values: Equatable {
        var words: [String] = []
        /// The widget names of the active config, asked for at completion time (`widgetd generate names`).
        var widgetNames = false
        var files = false

        var isEmpty: Bool { words.isEmpty && !widgetNames && !files }
    }

    struct Option {
        var name: String
        var summary: String
        /// nil for a flag; otherwise what its value completes to (maybe nothing, for a number).
        var value: Values?
        /// The value's name as help writes it ("PATH", "N"), for shells that show it while completing.
        var placeholder: String? = nil
    }

    struct Subcommand {
        var name: String
        var summary: String
        var options: [Option]
        /// What the first positional argument completes to.
        var positional: Values
    }

    var subcommands: [Subcommand]
    /// The options `widgetd` itself takes before a command.
    var topLevelOptions: [Option] = [
        Option(name: "-h", summary: "Show help.", value: nil),
        Option(name: "--help", summary: "Show help.", value: nil),
        Option(name: "--version", summary: "Show the version.", value: nil),
    ]

    init(registry: KindRegistry) {
        let commands = CommandDeclaration.visible.map(\.name.rawValue)
        subcommands = CommandDeclaration.visible.map { declared in
            let options = declared.allOptions.flatMap { option in
                ([option.shortName].compactMap { $0 } + [option.name]).map { name in
                    Option(
                        name: name, summary: Self.firstSentence(option.summary),
                        value: option.value.map { Self.values(ofPlaceholder: $0, registry: registry) },
                        placeholder: option.value)
                }
            }
            var positional = Values()
            for (syntax, _) in declared.arguments {
                for alternative in syntax.split(separator: " | ", omittingEmptySubsequences: false) {
                    guard let word = alternative.split(separator: " ").first.map(String.init) else { continue }
                    switch word {
                    case "NAME": positional.widgetNames = true
                    case "KIND": positional.words += registry.names
                    case "COMMAND": positional.words += commands
                    default:
                        // A literal word of the syntax (`i3blocks` of `import i3blocks`), not a placeholder.
                        if word.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) {
                            positional.words.append(word)
                        }
                    }
                }
            }
            return Subcommand(
                name: declared.name.rawValue, summary: declared.summary, options: options, positional: positional)
        }
    }

    /// What a value written as `placeholder` in help completes to.
    static func values(ofPlaceholder placeholder: String, registry: KindRegistry) -> Values {
        switch placeholder {
        case "FAMILY": Values(words: Family.allCases.map(\.rawValue))
        case "FORMAT": Values(words: OutputFormat.allCases.map(\.rawValue))
        case "KIND": Values(words: registry.names)
        case "LEVEL": Values(words: LogLevel.allCases.map(\.name))
        case "PATH": Values(files: true)
        default: Values()
        }
    }

    /// The first line of an explanation, for a shell's one-line description.
    static func firstSentence(_ text: String) -> String {
        let line = text.split(separator: "\n").first.map(String.init) ?? text
        guard let end = line.firstRange(of: ". ") else { return line }
        return String(line[..<end.lowerBound]) + "."
    }
}
