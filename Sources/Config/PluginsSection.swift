import Kind
import YAML

// The one top-level section of widgets.yaml that belongs to the plugin kinds rather than the core: which plugins to
// start besides those in the plugin directories (docs/PLUGINS.md). It is read before any plugin kind exists (their
// hellos make the kinds), so it cannot be declared by one; its parsing is kept here, in one place.

/// A plugin named in `plugins:`: how to start it.
public struct PluginCommand: Sendable, Hashable {
    public var name: String
    public var argv: [String]

    public init(name: String, argv: [String]) {
        self.name = name
        self.argv = argv
    }
}

extension ConfigValidator {
    /// `plugins:`: a mapping of plugin name → argv list, as exec's `command:` is written.
    mutating func pluginsSection(from node: YAMLNode) -> [PluginCommand] {
        guard let pairs = mapping(node, what: "'plugins'", expecting: "plugin names to commands") else { return [] }
        var plugins: [PluginCommand] = []
        for pair in pairs {
            if isFull { break }
            guard let name = keyName(pair.key) else { continue }
            guard let words = pair.value.sequence, !words.isEmpty else {
                report(
                    pair.value.sequence != nil
                        ? "plugin '\(name)' is an empty list; write [program, arguments…]"
                        : "plugin '\(name)' must be a list: [program, arguments…] (no shell unless you write [sh, -c, …])",
                    at: pair.value.mark)
                continue
            }
            let argv = words.compactMap { text($0, for: name, expected: "a command word") }
            guard argv.count == words.count else { continue }
            // Checked as exec's `command:` is: a missing program is found by `check`, not when a widget needs the kind.
            checkProgram(Self.expandingHome(argv[0]), at: words[0].mark)
            plugins.append(PluginCommand(name: name, argv: argv))
        }
        return plugins
    }
}

extension ConfigLoader {
    /// Only the valid entries of `plugins:` in the file at `path`, whatever else is wrong with it: the CLI needs them
    /// to know the plugin kinds before it checks the widgets (the full check reports the section's errors).
    public static func plugins(path: String) -> [PluginCommand] {
        guard let bytes = try? FileReading.contents(of: path, atMost: ConfigLimits.maxFileBytes) else { return [] }
        return plugins(bytes: bytes)
    }

    /// Only the valid entries of `plugins:` in `bytes`, a config's text (the copy of the config the daemon runs), read
    /// as `plugins(path:)` reads a file's.
    public static func plugins(bytes: [UInt8]) -> [PluginCommand] {
        guard firstInvalidUTF8(in: bytes) == nil,
            let root = try? LastParse.document(of: bytes).root, let pairs = root.mapping,
            let section = pairs.first(where: { $0.key.scalar?.text == "plugins" })
        else { return [] }
        var validator = ConfigValidator(registry: KindRegistry([]))
        return validator.pluginsSection(from: section.value)
    }
}
