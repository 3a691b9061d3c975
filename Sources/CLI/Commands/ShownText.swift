import Formats
import Text

/// What widgets show now, as a `--wait` prints it once the daemon has confirmed the request: read from their records
/// as `show` reads them, so it is what a bar shows, worked out by the daemon's own rule.
enum ShownText {
    /// The plain text of `name`'s current entry, escaped for a terminal (`TerminalText`: text from scripts and the
    /// store), or nil when the daemon has written no record for it.
    static func of(_ name: String, in directory: String) -> String? {
        ShowCommand.render(directory + "/" + name + ".json", as: .plain).map(TerminalText.escaped)
    }

    /// One line per widget: the text alone for a request about one widget, else `NAME: text`, in the daemon's order.
    static func lines(of widgets: [String], in directory: String, named: Bool) -> [String] {
        widgets.compactMap { name in
            of(name, in: directory).map { named ? name + ": " + $0 : $0 }
        }
    }
}
