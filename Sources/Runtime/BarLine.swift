/// A `bars:` entry's status line as the daemon writes it for `widgetd bar --bar NAME`: the file `<NAME>.bar` in the
/// output directory holds one i3bar status line, the JSON array of the bar's blocks (`BarBlock`), without a newline.
/// The daemon renders it from what its widgets show, replaces it whole (a new file renamed into place) when one of
/// its blocks changes, at most once per turn of its loop, and swaps entries in at their dates itself; `widgetd bar`
/// only passes the line on. One file per bar, so a bar wakes once for all the widgets a daemon turn sampled, and
/// reads and decodes no record.
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
}
