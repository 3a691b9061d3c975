import Config
import Kind
import YAML

/// A plugin named in `plugins:`: how to start it.
public struct PluginCommand: Sendable, Hashable {
    public var name: String
    public var argv: [String]

    public init(name: String, argv: [String]) {
        self.name = name
        self.argv = argv
    }
}

/// The top-level section of widgets.yaml that belongs to the plugin kinds rather than the core: which plugins to start
/// besides those in the plugin directories (docs/PLUGINS.md). The standard registry reads it, not a plugin kind: it is
/// read before any plugin kind exists, since its plugins' hellos make them.
public struct PluginsSection: ConfigSectionReader {
    public let key = "plugins"
    public let summary =
        "Optional: plugin names to commands (argv lists) that serve kinds from outside (docs/PLUGINS.md)."

    public init() {}

    /// A mapping of plugin name → argv list, as exec's `command:` is written.
    public func read(_ node: YAMLNode, checking validator: inout ConfigValidator) -> [PluginCommand] {
        guard let pairs = validator.mapping(node, what: "'plugins'", expecting: "plugin names to commands") else {
            return []
        }
        var plugins: [PluginCommand] = []
        for pair in pairs {
            if validator.isFull { break }
            guard let name = validator.keyName(pair.key) else { continue }
            guard let words = pair.value.sequence, !words.isEmpty else {
                validator.report(
                    pair.value.sequence != nil
                        ? "plugin '\(name)' is an empty list; write [program, arguments…]"
                        : "plugin '\(name)' must be a list: [program, arguments…] (no shell unless you write [sh, -c, …])",
                    at: pair.value.mark)
                continue
            }
            let argv = words.compactMap { validator.text($0, for: name, expected: "a command word") }
            guard argv.count == words.count else { continue }
            // Checked as exec's `command:` is: a missing program is found by `check`, not when a widget needs the kind.
            validator.checkProgram(ConfigValidator.expandingHome(argv[0]), at: words[0].mark)
            plugins.append(PluginCommand(name: name, argv: argv))
        }
        return plugins
    }
}

extension Configuration {
    /// `plugins:`: plugin name → argv, beside the plugins found in the plugin directories (docs/PLUGINS.md).
    public var plugins: [PluginCommand] { section(PluginsSection()) ?? [] }
}

extension ConfigLoader {
    /// Only the valid entries of `plugins:` in the file at `path`, whatever else is wrong with it: the CLI needs them
    /// to know the plugin kinds before it checks the widgets (the full check reports the section's errors).
    public static func plugins(path: String) -> [PluginCommand] {
        section(PluginsSection(), path: path) ?? []
    }

    /// Only the valid entries of `plugins:` in `bytes`, a config's text (the copy of the config the daemon runs), read
    /// as `plugins(path:)` reads a file's.
    public static func plugins(bytes: [UInt8]) -> [PluginCommand] {
        section(PluginsSection(), bytes: bytes) ?? []
    }
}
