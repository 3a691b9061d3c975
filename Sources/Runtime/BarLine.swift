/// A `bars:` entry's status line, as the daemon renders it for `widgetd bar --bar NAME`: one i3bar status line, the
/// JSON array of the bar's blocks (`BarBlock`), without a newline. The daemon renders it from what its widgets show
/// when one of its blocks changes, at most once per turn of its loop, and swaps entries in at their dates itself;
/// `widgetd bar` only passes the line on, and decodes no record.
///
/// The line reaches a bar one of two ways:
/// - **Pushed.** A bar connects to the daemon's updates socket (`UpdatesMessage`) and sends `subscribe NAME`. The
///   daemon answers with the bar's current line, then sends each new line as one message; a bar whose output is
///   i3bar's pipe hands it over (`UpdatesMessage.writeLines`) and the daemon writes the lines there itself. While a
///   bar of that name is subscribed, the daemon writes no file for it: one `send` or `write` per line is the whole
///   cost of passing it on.
/// - **Filed.** While no bar subscribes, the daemon keeps the line in `<NAME>.bar` in the output directory, replaced
///   whole (a new file renamed into place) at each change; and when the last subscriber goes or the daemon stops, the
///   current line is written there. So a bar that starts before the daemon, or outlives one, shows the last line the
///   daemon had, and subscribes as soon as a daemon listens.
public enum BarLine {
    public static let suffix = "bar"

    public static func fileName(of bar: String) -> String { bar + "." + suffix }

    public static func path(of bar: String, in output: String) -> String {
        (output.hasSuffix("/") ? output : output + "/") + fileName(of: bar)
    }

    /// The line of `blocks`, each one JSON object.
    public static func line(_ blocks: [String]) -> String {
        "[" + blocks.joined(separator: ",") + "]"
    }

    /// Whether `bytes` is a status line as the daemon renders them: one JSON array on one line.
    public static func isLine(_ bytes: some BidirectionalCollection<UInt8>) -> Bool {
        bytes.first == UInt8(ascii: "[") && bytes.last == UInt8(ascii: "]") && !bytes.contains(UInt8(ascii: "\n"))
    }
}
