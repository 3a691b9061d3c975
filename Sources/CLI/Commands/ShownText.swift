import Formats
import Text

/// What widgets show now, as a `--wait` prints it once the daemon has confirmed the request: read from their records
/// as `show` reads them, so it is what a bar shows, worked out by the daemon's own rule. A sampled widget's record is
/// written only while someone follows it (`UpdatesMessage.follow`): the records are followed while they are read.
enum ShownText {
    /// The plain text of `name`'s current entry, escaped for a terminal (`TerminalText`: text from scripts and the
    /// store), or nil when the daemon has written no record for it. `updates`: the daemon's updates socket.
    static func of(_ name: String, in directory: String, updates: String) -> String? {
        lines(of: [name], in: directory, updates: updates, named: false).first
    }

    /// One line per widget: the text alone for a request about one widget, else `NAME: text`, in the daemon's order.
    static func lines(of widgets: [String], in directory: String, updates: String, named: Bool) -> [String] {
        let following = DaemonSubscription.follow(widgets, socketPath: updates)
        defer { withExtendedLifetime(following) {} }
        return widgets.compactMap { name in
            ShowCommand.render(directory + "/" + name + ".json", as: .plain).map(TerminalText.escaped).map {
                named ? name + ": " + $0 : $0
            }
        }
    }
}
