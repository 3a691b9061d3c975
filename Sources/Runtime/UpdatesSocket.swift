/// What is said on the daemon's updates socket (`ControlPaths.updates`), a Unix `SOCK_SEQPACKET` socket: a client
/// connects and says what it wants in one message, and the daemon keeps it informed for as long as it stays connected.
///
/// - `subscribe BAR`: a `bars:` entry's line (`BarLine`). The daemon answers with the current line, then sends each
///   new one as a message.
/// - `follow NAME NAME …`: the widgets' records (`<name>.json`), kept current. A sampled widget's record (a kind that
///   reloads on a rule of its own, `WidgetKind.nextScheduledReload`) is written only while someone follows it, so a
///   bar that only shows the widget costs no record per sample; the daemon writes every followed record that is behind
///   and answers `current`, then writes each new one as it comes. A message holds at most `longestFollow` bytes: more
///   names are said in several `follow`s on the same connection (`follows`), each adding its widgets and answered
///   `current written` on its own, so the answer to the last one says every record is current. `widgetd show`, `list`
///   and a `--wait` that prints what widgets show follow for as long as they read, `show --follow` and `widgetd bar
///   --widgets` for as long as they run.
/// - `written`, said by the daemon to a following connection at the end of each turn of its loop that wrote a record
///   the connection follows: the turn's records are all in place. The samples of one deadline are one turn's records,
///   written a record at a time; `widgetd bar --widgets` makes its line when it is told, so no line shows some of
///   them new and others old. A daemon that answers `current` alone (from before `written`) does not say it.
public enum UpdatesMessage: Equatable, Sendable {
    case subscribe(bar: String)
    case follow(widgets: [String])
    /// After `subscribe`, with a descriptor passed along (`SCM_RIGHTS`): the bar's standard output, i3bar's pipe. The
    /// daemon writes the bar's lines there itself from then on, each as `,LINE` and a newline (the bar wrote the
    /// protocol's header and a first line), so no second process wakes for a line.
    case writeLines
    /// After `writeLines`: i3bar asked the bar to stop its output (the bar is hidden), or to continue it.
    case pause, resume

    /// Whether this is a bar's subscription, after which the bar may say `write`, `pause` and `resume`.
    public var isSubscription: Bool {
        if case .subscribe = self { true } else { false }
    }

    /// The daemon's answer to `follow`, once the records are current: it says `written` at the end of each turn.
    public static let current = "current written"
    /// What the daemon says at the end of a turn that wrote a record the connection follows.
    public static let written = "written"

    /// Whether `bytes` are the daemon's answer to a `follow`, this daemon's or one from before `written`
    /// (`current` alone), rather than a turn's end.
    public static func isAnswer(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: "current".utf8)
    }

    /// The longest `follow` message a client sends: more widgets are followed by several `follow`s on one connection.
    public static let longestFollow = 60 * 1024

    /// `follow` messages for `widgets`, each at most `longestFollow` bytes (a name longer than that alone in one).
    public static func follows(_ widgets: [String]) -> [UpdatesMessage] {
        var messages: [UpdatesMessage] = []
        var chunk: [String] = []
        var length = "follow".utf8.count
        for widget in widgets {
            if !chunk.isEmpty, length + 1 + widget.utf8.count > longestFollow {
                messages.append(.follow(widgets: chunk))
                chunk = []
                length = "follow".utf8.count
            }
            chunk.append(widget)
            length += 1 + widget.utf8.count
        }
        if !chunk.isEmpty { messages.append(.follow(widgets: chunk)) }
        return messages
    }

    public var bytes: [UInt8] {
        switch self {
        case .subscribe(let bar): Array(("subscribe " + bar).utf8)
        case .follow(let widgets): Array((["follow"] + widgets).joined(separator: " ").utf8)
        case .writeLines: Array("write".utf8)
        case .pause: Array("pause".utf8)
        case .resume: Array("resume".utf8)
        }
    }

    /// The message `bytes` say; nil when they are none.
    public init?(_ bytes: some Collection<UInt8>) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        switch words.first {
        case "subscribe" where words.count == 2 && !words[1].isEmpty:
            self = .subscribe(bar: words[1])
        case "follow" where words.count >= 2 && !words.dropFirst().contains(""):
            self = .follow(widgets: Array(words.dropFirst()))
        case "write" where words.count == 1: self = .writeLines
        case "pause" where words.count == 1: self = .pause
        case "resume" where words.count == 1: self = .resume
        default:
            return nil
        }
    }
}
