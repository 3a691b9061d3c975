import Diagnostics
import FoundationEssentials
import Kind
import Text
import YAML

/// What reading a `widgets.yaml` gave: the configuration when it is valid, and the diagnostics.
public struct ConfigLoadResult: Sendable {
    /// Nil when any error was found: a running daemon keeps its previous configuration then.
    public var configuration: Configuration?
    /// Errors and warnings in file order; a valid configuration may come with warnings. Of the errors, only the first
    /// `ConfigLimits.maxShownErrors` found are here (`moreErrors` counts the rest).
    public var diagnostics: [Diagnostic]
    /// The file's lines, for quoting them under diagnostics.
    public var source: SourceLines?
    /// Errors found besides those in `diagnostics`: counted, never made.
    public var moreErrors = 0
    /// Whether checking stopped at `ConfigLimits.maxCountedErrors`: the file may hold more errors than counted.
    public var stoppedEarly = false

    /// The errors found, shown or not.
    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count + moreErrors }

    /// "3 errors", or "at least 10000 errors" when checking stopped early.
    public var errorSummary: String { (stoppedEarly ? "at least " : "") + counted(errorCount, "error") }

    /// The first `limit` diagnostics with their source line and caret, one block after another, then "and N more
    /// errors" for the rest: 8,000 duplicate keys print a screenful, not 8,000 excerpts.
    public func renderedDiagnostics(limit: Int = ConfigLimits.maxShownErrors) -> String {
        var blocks = diagnostics.prefix(limit).map { $0.rendered(source: source) }
        let more = max(0, diagnostics.count - limit) + moreErrors
        if stoppedEarly {
            blocks.append(
                "and at least \(counted(more, "more error")) (checking stops after \(ConfigLimits.maxCountedErrors))")
        } else if more > 0 {
            blocks.append("and \(counted(more, "more error"))")
        }
        return blocks.joined(separator: "\n")
    }
}

/// Reads and checks `widgets.yaml`.
public enum ConfigLoader {
    /// Reads the file at `path` and checks it. `path` is shown in diagnostics as given. `pipeWait`: how long a pipe or
    /// FIFO there may take to end (`FileReading`); the daemon's loop and a running bar, which must not stop for it,
    /// give it none.
    public static func load(
        path: String, registry: KindRegistry, pipeWait: TimeInterval = FileReading.pipeWait
    ) -> ConfigLoadResult {
        let bytes: [UInt8]
        do {
            bytes = try FileReading.contents(of: path, atMost: ConfigLimits.maxFileBytes, pipeWait: pipeWait)
        } catch {
            return ConfigLoadResult(diagnostics: [Diagnostic(error.description, file: path, at: nil)])
        }
        return load(bytes: bytes, file: path, registry: registry)
    }

    /// Checks `bytes` as the contents of `file`.
    public static func load(bytes: [UInt8], file: String, registry: KindRegistry) -> ConfigLoadResult {
        guard bytes.count <= ConfigLimits.maxFileBytes else {
            let error = FileReading.tooLarge(path: file, size: bytes.count, limit: ConfigLimits.maxFileBytes)
            return ConfigLoadResult(diagnostics: [Diagnostic(error.description, file: file, at: nil)])
        }
        // Parsed a moment ago for its settings or plugins (`LastParse`): valid UTF-8, and the same nodes.
        let parsed = LastParse.take(bytes)
        if parsed == nil, let mark = firstInvalidUTF8(in: bytes) {
            let diagnostic = Diagnostic("the file is not valid UTF-8", file: file, at: mark)
            return ConfigLoadResult(diagnostics: [diagnostic])
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let source = SourceLines(text)
        func failure(_ errors: [LocatedError], more: Int = 0, stoppedEarly: Bool = false) -> ConfigLoadResult {
            // The first of the errors made: each source kept its own first ones, so these are the first of all.
            let diagnostics = errors.map { Diagnostic($0.message, file: file, at: $0.mark, code: $0.code) }
                .sortedByPlace()
            let shown = diagnostics.prefix(ConfigLimits.maxShownErrors)
            return ConfigLoadResult(
                diagnostics: Array(shown), source: source, moreErrors: more + diagnostics.count - shown.count,
                stoppedEarly: stoppedEarly)
        }
        if text.allSatisfy(\.isWhitespace) {
            return failure([LocatedError("the file is empty; expected 'widgets:' and the widgets under it", at: .start)]
            )
        }
        let document: YAMLDocument
        do {
            if let parsed {
                document = parsed
            } else {
                document = try YAMLLoader.load(bytes: bytes)
            }
        } catch {
            return failure([LocatedError(error.message, at: error.mark)])
        }
        var errors = document.diagnostics.map { LocatedError($0.message, at: $0.mark) }
        guard let root = document.root else {
            errors.append(LocatedError("the file holds only comments; expected 'widgets:'", at: .start))
            return failure(errors, more: document.moreDiagnostics)
        }
        var validator = ConfigValidator(registry: registry, source: source)
        let configuration = validator.configuration(from: root)
        errors += validator.errors.errors
        let warnings = validator.warnings.map { Diagnostic($0.message, file: file, at: $0.mark, severity: .warning) }
        guard errors.isEmpty else {
            let unmade = document.moreDiagnostics + validator.errors.count - validator.errors.earliest.count
            var result = failure(errors, more: unmade, stoppedEarly: validator.isFull)
            result.diagnostics = (result.diagnostics + warnings).sortedByPlace()
            return result
        }
        return ConfigLoadResult(configuration: configuration, diagnostics: warnings.sortedByPlace(), source: source)
    }

    /// Only the `settings:` of the file at `path`, whatever else is wrong with it; defaults when the file
    /// is missing or its settings are invalid. The CLI needs the store's path before it knows the kinds.
    public static func settings(path: String) -> Settings {
        guard let bytes = try? FileReading.contents(of: path, atMost: ConfigLimits.maxFileBytes),
            firstInvalidUTF8(in: bytes) == nil,
            let root = try? LastParse.document(of: bytes).root, let pairs = root.mapping,
            let section = pairs.first(where: { $0.key.scalar?.text == "settings" })
        else { return Settings() }
        var validator = ConfigValidator(registry: KindRegistry([]))
        let settings = validator.settingsSection(from: section.value)
        return validator.errors.count == 0 ? settings : Settings()
    }

    /// `settings(path:)` for a caller that must not guess: the store's commands edit the store these settings name, and
    /// defaults in place of a file they cannot read would edit another one with nothing said.
    ///
    /// - Throws: the first problem that keeps the settings from being known: the file unreadable, not UTF-8 or not
    ///   YAML, or an error in `settings:` itself. Mistakes elsewhere in the file do not count.
    public static func checkedSettings(path: String) throws(Diagnostic) -> Settings {
        guard let section = try document(at: path).root?.mapping?.first(where: { $0.key.scalar?.text == "settings" })
        else {
            return Settings()
        }
        var validator = ConfigValidator(registry: KindRegistry([]))
        let settings = validator.settingsSection(from: section.value)
        if let error = validator.errors.errors.first {
            throw Diagnostic(error.message, file: path, at: error.mark)
        }
        return settings
    }

    /// The names under `widgets:` in the file at `path`, read even when other parts are invalid: the daemon keeps
    /// running its last good configuration while the file is being edited, and its widgets keep their names.
    ///
    /// - Throws: a diagnostic when the file cannot be read or is not YAML, so no name can be checked.
    public static func widgetNames(path: String) throws(Diagnostic) -> [String] {
        names(in: try document(at: path))
    }

    /// The names under `widgets:` in `bytes`, the contents of `file`, read as `widgetNames(path:)` reads a file's.
    public static func widgetNames(bytes: [UInt8], file: String) throws(Diagnostic) -> [String] {
        names(in: try document(of: bytes, file: file))
    }

    private static func names(in document: YAMLDocument) -> [String] {
        guard let widgets = document.root?["widgets"]?.value.mapping else { return [] }
        return widgets.compactMap { $0.key.scalar?.text }
    }

    /// The YAML document in the file at `path` (through `LastParse`, so the next read of the same bytes parses
    /// nothing), whatever its contents mean.
    ///
    /// - Throws: a diagnostic when the file cannot be read, is not UTF-8 or is not YAML.
    private static func document(at path: String) throws(Diagnostic) -> YAMLDocument {
        let bytes: [UInt8]
        do {
            bytes = try FileReading.contents(of: path, atMost: ConfigLimits.maxFileBytes)
        } catch {
            throw Diagnostic(error.description, file: path, at: nil)
        }
        return try document(of: bytes, file: path)
    }

    private static func document(of bytes: [UInt8], file: String) throws(Diagnostic) -> YAMLDocument {
        if let mark = firstInvalidUTF8(in: bytes) {
            throw Diagnostic("the file is not valid UTF-8", file: file, at: mark)
        }
        do {
            return try LastParse.document(of: bytes)
        } catch {
            throw Diagnostic(error.message, file: file, at: error.mark)
        }
    }

    /// Where the first byte that is not UTF-8 sits, or nil when all of it is.
    static func firstInvalidUTF8(in bytes: [UInt8]) -> YAMLMark? {
        // Valid, as nearly every file is: the standard library checks it in large steps. The walk below, which also
        // finds the place of an error, decodes a scalar at a time, which is too slow to run on every file `check` reads
        // (docs/PERFORMANCE.md, "First writes and start-up").
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var mark = YAMLMark.start
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    mark = YAMLMark(line: mark.line + 1, column: 1)
                } else {
                    mark.column += 1
                }
            case .emptyInput:
                return nil
            case .error:
                return mark
            }
        }
    }
}

extension YAMLMark {
    /// Line 1, column 1.
    public static let start = YAMLMark(line: 1, column: 1)
}
