import FoundationEssentials
import Kind

/// How the exec kind runs an instance's command: its widget-level keys, as an i3blocks section has `command=`,
/// `interval=`, `signal=` and `format=`.
struct ExecSettings: Sendable, Hashable {
    /// The argv; no shell unless the user writes `sh -c`.
    var command: [String]
    /// How long one run may take before its process group is killed.
    var timeout: TimeInterval
    /// How often to run it again; nil: only on reloads, clicks, signals and `schedule:`.
    var interval: TimeInterval?
    /// `interval: persist` (or `repeat`): started once and kept running; every line it prints is an update.
    var isPersistent: Bool
    /// `interval: repeat`, i3blocks' own: kept running with no timeout, its whole output read when it exits (as a
    /// one-shot run's: lines or JSON, 33 for urgent), and started again at once after a clean or urgent exit, without
    /// the crash back-off or the stale mark.
    var repeats: Bool
    /// `SIGRTMIN+signal` reloads the widget.
    var signal: Int?
    /// How the command's output is read.
    var format: Format
    /// `format: json`: the command prints i3bar JSON objects (one per line when persistent).
    var printsJSON: Bool { format == .json }

    /// `format:`, or its absence.
    enum Format: Sendable, Equatable {
        /// Not given: i3blocks lines, unless a run's whole output is a JSON timeline or i3bar block (an object with
        /// `entries` or `full_text`), widgetd's own extension. Other text starting with `{` (`{VPN} up`) is a line.
        case detected
        /// `format: raw`: i3blocks lines, whatever they hold, as i3blocks reads them.
        case raw
        /// `format: json`: JSON, whose mistakes are the widget's errors.
        case json
    }

    static let defaultTimeout: TimeInterval = 5

    /// The keys `widgets.yaml` takes on an exec widget.
    static let keys: [WidgetKeySpec] = [
        WidgetKeySpec(
            "command", type: .command, requiredHint: "command: [program, arguments…]",
            summary: "the argv to run; no shell unless you write [sh, -c, …]"),
        WidgetKeySpec(
            "interval", type: .duration(1...31_536_000, words: ["persist", "repeat", "once"]),
            summary:
                "run again this often; persist: keep it running, each line it prints replaces the entry; repeat: "
                + "run with no timeout, its whole output shown when it exits, and started again at once"),
        WidgetKeySpec(
            "timeout", type: .duration(0.01...300, words: []),
            summary: "kill its process group after this long (default 5s; not for persist)"),
        WidgetKeySpec("signal", type: .int(1...30), summary: "SIGRTMIN+N reloads it, as i3blocks' signal="),
        WidgetKeySpec(
            "format", type: .choice(["raw", "json"]),
            summary: "raw: i3blocks lines (default); json: i3bar objects, one per line when persistent"),
    ]

    init(
        command: [String], timeout: TimeInterval = ExecSettings.defaultTimeout, interval: TimeInterval? = nil,
        isPersistent: Bool = false, repeats: Bool = false, signal: Int? = nil, format: Format = .detected
    ) {
        self.command = command
        self.timeout = timeout
        self.interval = interval
        self.isPersistent = isPersistent || repeats
        self.repeats = repeats
        self.signal = signal
        self.format = format
    }

    init(_ settings: WidgetSettings) {
        self.init(
            command: settings.command("command") ?? [], timeout: settings.duration("timeout") ?? Self.defaultTimeout,
            interval: settings.duration("interval"), isPersistent: settings.word("interval") == "persist",
            repeats: settings.word("interval") == "repeat", signal: settings.int("signal"),
            format: settings.word("format") == "json" ? .json : settings.word("format") == "raw" ? .raw : .detected)
    }

    /// `BLOCK_INTERVAL` as i3blocks sets it: the section's `interval=` as written.
    var intervalText: String {
        if repeats { return "repeat" }
        if isPersistent { return "persist" }
        guard let interval else { return "once" }
        return interval == interval.rounded() ? String(Int(interval)) : String(interval)
    }
}
