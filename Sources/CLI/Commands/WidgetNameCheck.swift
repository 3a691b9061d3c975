import Config
import Text

/// Whether a widget name given on the command line is one the daemon runs (or, with no daemon, the config declares).
///
/// `reload`, `click`, `intent` and `show` check the name before writing to the daemon or reading its files, so a
/// typo fails at once with a suggestion instead of being written to the FIFO, dropped by the daemon, and reported
/// as success (or blamed on the daemon). The names are those of the config the running daemon runs (`WidgetSource`),
/// so a widgets.yaml saved with a mistake changes nothing while the daemon keeps its config; with no daemon, those of
/// the file, read even when it has errors elsewhere.
enum WidgetNameCheck: Equatable {
    case known
    /// The config lacks the name: the message names the config and suggests the closest name.
    case unknown(String)
    /// The config cannot be read (missing, not YAML), so no name can be checked.
    case unchecked(String)

    init(_ name: String, in source: WidgetSource) {
        let names: [String]
        do {
            names = try source.widgetNames()
        } catch {
            self = .unchecked("cannot check widget '\(name)': \(error.place)")
            return
        }
        guard !names.contains(name), !source.fileDeclares(name) else {
            self = .known
            return
        }
        self = .unknown("no widget '\(name)' in \(source.path)" + Self.hint(for: name, among: names))
    }

    /// What follows "no widget 'NAME'": the name it was likely meant to be, else the names there are.
    static func hint(for name: String, among names: [String]) -> String {
        let hint = Suggestion.didYouMean(name, in: names)
        return hint.isEmpty ? "; " + (names.isEmpty ? "it declares none" : "widgets: " + listed(names)) : hint
    }

    /// Nil for a known name; else the error to print.
    static func problem(with name: String, in source: WidgetSource) -> String? {
        switch WidgetNameCheck(name, in: source) {
        case .known: nil
        case .unknown(let message), .unchecked(let message): message
        }
    }

    /// The first few names, so a config with hundreds of widgets gives one line.
    private static func listed(_ names: [String]) -> String {
        let shown = names.prefix(8).joined(separator: ", ")
        return names.count > 8 ? shown + ", … (\(names.count) in all)" : shown
    }
}
