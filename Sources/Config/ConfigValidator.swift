import Basics
import Diagnostics
import Glibc
import Kind
import Text
import YAML

/// Turns a loaded YAML tree into a `Configuration`, collecting every mistake in one pass.
///
/// Validation never stops at the first problem: each section is checked on its own, and an instance with
/// errors is left out of the result while the others are still checked. Public for the sections the kinds read
/// (`ConfigSectionReader`), which report through it with the shapes every section shares.
public struct ConfigValidator {
    /// The core's sections; the kinds add theirs (`KindRegistry.sections`).
    static let coreTopLevelKeys = ["settings", "widgets", "bars"]
    /// Top-level keys with this prefix are the user's own, ignored by widgetd.
    static let extensionPrefix = "x-"
    static let settingsKeys = ["output_dir", "store"]
    /// The keys every widget takes; a kind adds its own (`WidgetKind.widgetKeys`).
    static let widgetKeys = ["kind", "family", "intent", "schedule", "timezone", "output", "on_click"]

    let registry: KindRegistry
    /// The file's lines, to place errors inside a value (a cron field); nil places them from the value's start.
    let source: SourceLines?
    /// The first errors, made, and a count of the rest: checking stops at `ConfigLimits.maxCountedErrors`
    /// (`isFull`), and a message is made only for an error that may be shown.
    private(set) var errors = EarliestErrors<LocatedError>()
    /// Problems that do not stop the configuration from loading (a command not found on this PATH).
    private(set) var warnings: [LocatedError] = []
    /// Intents and output lists equal between widgets, held once.
    var shared = SharedValues()
    /// The widgets whose `output:` is given; the others write the default, `plain`, unless a bar shows them.
    var widgetsNamingOutputs: Set<String> = []

    init(registry: KindRegistry, source: SourceLines? = nil) {
        self.registry = registry
        self.source = source
    }

    static func topLevelKeys(in registry: KindRegistry) -> [String] {
        coreTopLevelKeys + registry.sections.map(\.key)
    }

    /// Where character `offset` of `node`'s scalar is in the file, even in a block or multi-line scalar.
    func mark(ofOffset offset: Int, in node: YAMLNode) -> YAMLMark {
        guard let scalar = node.scalar else { return node.mark }
        if let source {
            return source.mark(ofOffset: offset, in: scalar.text, style: scalar.style, at: node.mark)
        }
        let quote = scalar.style == .singleQuoted || scalar.style == .doubleQuoted ? 1 : 0
        return YAMLMark(line: node.mark.line, column: node.mark.column + quote + offset)
    }

    /// An error at `mark`; `message` is made only when the error may be shown.
    public mutating func report(_ message: @autoclosure () -> String, at mark: YAMLMark, code: Diagnostic.Code? = nil) {
        errors.add(at: mark) { LocatedError(message(), at: mark, code: code) }
    }

    mutating func report(_ error: LocatedError) {
        errors.add(at: error.mark) { error }
    }

    /// Whether checking should stop: `ConfigLimits.maxCountedErrors` errors are found.
    public var isFull: Bool { errors.isFull }

    mutating func warn(_ message: String, at mark: YAMLMark) {
        warnings.append(LocatedError(message, at: mark))
    }

    /// An error from decoding `node`, placed inside the value when it names an offset there.
    mutating func report(_ error: LocatedError, in node: YAMLNode) {
        guard let offset = error.valueOffset else { return report(error) }
        report(error.message, at: mark(ofOffset: offset, in: node), code: error.code)
    }

    /// Reads the document's root: a mapping with `settings` and `widgets`.
    mutating func configuration(from root: YAMLNode) -> Configuration {
        var configuration = Configuration()
        guard let pairs = mapping(root, what: "the configuration", expecting: "'settings' and 'widgets'") else {
            return configuration
        }
        var sawWidgets = false
        var barsNode: YAMLNode?
        for pair in pairs {
            if isFull { break }
            guard let key = keyName(pair.key) else { continue }
            switch key {
            case "settings":
                configuration.settings = settingsSection(from: pair.value)
            case "widgets":
                sawWidgets = true
                configuration.widgets = widgets(from: pair.value)
            case "bars":
                barsNode = pair.value
            case _ where key.hasPrefix(Self.extensionPrefix):
                // Holds anchors for merge keys, as docker compose's `x-` fields do.
                continue
            default:
                if let section = registry.section(forKey: key) as? any ConfigSectionReader {
                    configuration.sections[key] = section.read(pair.value, checking: &self)
                    continue
                }
                let keys = Self.topLevelKeys(in: registry)
                report(
                    "unknown top-level key '\(ConfigLimits.quoted(key))'"
                        + Suggestion.didYouMean(
                            key, in: keys,
                            then:
                                "expected \(keys.map { "'\($0)'" }.joined(separator: ", ")) or an 'x-' key of your own"
                        ),
                    at: pair.key.mark)
            }
        }
        if !sawWidgets && !isFull {
            report("no 'widgets' mapping: nothing to show", at: root.mark)
        }
        if let barsNode, !isFull {
            // Every name under `widgets:`, also those left out for their own errors, so each mistake is told once.
            let names = pairs.first { $0.key.scalar?.text == "widgets" }?.value.mapping?.compactMap(\.key.scalar?.text)
            configuration.bars = bars(from: barsNode, widgetNames: names ?? [])
            configuration.widgets = withoutDefaultFiles(configuration.widgets, shownOn: configuration.bars)
        }
        return configuration
    }

    // MARK: - Shapes shared by every section

    /// The node's pairs when it is a mapping; an empty list for a null value; else an error.
    /// `what` and `expecting` are worded only for the error: a valid config of 10,000 widgets builds no message.
    public mutating func mapping(
        _ node: YAMLNode, what: @autoclosure () -> String, expecting: @autoclosure () -> String
    ) -> [YAMLPair]? {
        if let pairs = node.mapping { return pairs }
        if let scalar = node.scalar, scalar.isNull { return [] }
        report("\(what()) must be a mapping of \(expecting()), found \(node.kindDescription)", at: node.mark)
        return nil
    }

    /// A mapping key's text; keys must be plain scalars.
    public mutating func keyName(_ key: YAMLNode) -> String? {
        guard let scalar = key.scalar, !scalar.isNull else {
            report("a key must be a name, found \(key.kindDescription)", at: key.mark)
            return nil
        }
        return scalar.text
    }

    /// A scalar's text, or an error naming what was expected.
    public mutating func text(
        _ node: YAMLNode, for key: String, expected: @autoclosure () -> String = "a string"
    ) -> String? {
        guard let scalar = node.scalar, !scalar.isNull else {
            let found = node.scalar == nil ? node.kindDescription : "nothing"
            report("'\(key)' expects \(expected()), found \(found)", at: node.mark)
            return nil
        }
        return scalar.text
    }

    // MARK: - settings

    mutating func settingsSection(from node: YAMLNode) -> Settings {
        var settings = Settings()
        guard let pairs = mapping(node, what: "'settings'", expecting: Self.settingsKeys.joined(separator: ", "))
        else { return settings }
        for pair in pairs {
            guard let key = keyName(pair.key) else { continue }
            switch key {
            case "output_dir":
                settings.outputDirectory = path(pair.value, for: key)
                if let path = settings.outputDirectory, Self.fileType(of: path).map({ $0 != S_IFDIR }) == true {
                    report(
                        "'output_dir' '\(ConfigLimits.quoted(path))' is there but is not a directory",
                        at: pair.value.mark)
                } else if let path = settings.outputDirectory, let file = Self.fileAbove(path) {
                    report(
                        "'output_dir' '\(ConfigLimits.quoted(path))' is under '\(file)', which is no directory",
                        at: pair.value.mark)
                }
            case "store":
                settings.store = path(pair.value, for: key)
                if let path = settings.store, Self.fileType(of: path) == S_IFDIR {
                    report(
                        "'store' '\(ConfigLimits.quoted(path))' is a directory; name the store's file in it "
                            + "('\(ConfigLimits.quoted(path + "/store.sqlite"))')", at: pair.value.mark)
                } else if let path = settings.store, let file = Self.fileAbove(path) {
                    report(
                        "'store' '\(ConfigLimits.quoted(path))' is under '\(file)', which is no directory",
                        at: pair.value.mark)
                }
            default:
                report(
                    "unknown setting '\(key)'"
                        + Suggestion.didYouMean(
                            key, in: Self.settingsKeys,
                            then: "settings are \(Self.settingsKeys.joined(separator: ", "))"), at: pair.key.mark)
            }
        }
        return settings
    }

    /// What is at a path setting (`~/` read as the home directory), following links; nil when nothing is, which is
    /// fine: the daemon makes the directory, the store makes its file.
    private static func fileType(of path: String) -> mode_t? {
        var status = stat()
        guard stat(expandingHome(path), &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    /// The nearest existing path above `path` when it is not a directory (a file where a directory of the path
    /// goes), or nil: the daemon makes what is missing, and cannot under a file.
    private static func fileAbove(_ path: String) -> String? {
        var above = Path.directory(of: expandingHome(path))
        while !above.isEmpty, above != "/" {
            if let type = fileType(of: above) { return type == S_IFDIR ? nil : above }
            above = Path.directory(of: above)
        }
        return nil
    }

    /// A path setting: absolute, or under the home directory with `~/`. A relative path would depend on the
    /// daemon's working directory, which a systemd unit does not promise.
    private mutating func path(_ node: YAMLNode, for key: String) -> String? {
        guard let path = text(node, for: key, expected: "a path") else { return nil }
        guard path.hasPrefix("/") || path == "~" || path.hasPrefix("~/") else {
            report("'\(key)' must be an absolute path or start with '~/', found '\(path)'", at: node.mark)
            return nil
        }
        guard !path.contains("\0") else {
            report("'\(key)' contains a NUL character", at: node.mark)
            return nil
        }
        return path
    }

    // MARK: - widgets

    private mutating func widgets(from node: YAMLNode) -> [WidgetInstance] {
        guard let pairs = mapping(node, what: "'widgets'", expecting: "instance names to widgets") else {
            return []
        }
        var instances: [WidgetInstance] = []
        instances.reserveCapacity(pairs.count)
        for pair in pairs {
            if isFull { break }
            guard let name = keyName(pair.key) else { continue }
            if let instance = widget(named: name, at: pair.key.mark, from: pair.value) {
                instances.append(instance)
            }
        }
        return instances
    }
}
