import FoundationEssentials

/// Keeps one source of log lines (the control FIFO, one widget) from flooding the log.
///
/// Per source and window (`window` seconds from its first line): the first `burst` different lines are logged; a line
/// identical to the one just logged is only counted while it comes again within `quiet` seconds of its last coming (a
/// flood), and logged as it comes after such a pause (a widget timing out every two seconds: each line keeps its
/// time), after the count of the quick repeats before it; lines
/// past the burst are counted too. When the window ends, what was held back is one line: "… (repeated 5123 times)" for
/// repeats of the last line, else "… N more lines not logged …; the last: …". Nothing is lost without a count, and a
/// flood of a million bad lines costs a few log lines, and leaves the burst to the different lines among them.
///
/// Pure: the caller passes the time and arms its timer at `nextDeadline`, so tests run with a clock of their own.
public struct LogRateLimiter {
    /// A line to log and how important it is.
    public struct Line: Equatable {
        public var level: LogLevel
        public var text: String

        public init(level: LogLevel, text: String) {
            self.level = level
            self.text = text
        }
    }

    public let burst: Int
    public let window: TimeInterval
    /// How long a line must not have come again for its next repeat to be logged rather than counted.
    public let quiet: TimeInterval

    private struct Source {
        var windowEnd: Date
        var logged = 0
        /// The last line logged, when it last came (logged or not), and how many times it came again since it was
        /// logged without being logged.
        var last: Line?
        var lastSeenAt: Date?
        var repeats = 0
        /// Lines past the burst (not repeats of `last`), and the latest of them.
        var suppressed = 0
        var lastSuppressed: Line?
    }

    private var sources: [String: Source] = [:]

    public init(burst: Int = 10, window: TimeInterval = 5, quiet: TimeInterval = 1) {
        self.burst = max(1, burst)
        self.window = window
        self.quiet = quiet
    }

    /// What to log now for `line` from `source`: the line, or nothing when it is held back, after any summary of the
    /// source's previous window.
    public mutating func admit(_ line: Line, from source: String, now: Date) -> [Line] {
        var out: [Line] = []
        if let state = sources[source], state.windowEnd <= now {
            out += summary(of: source, state)
            sources[source] = nil
        }
        var state = sources[source] ?? Source(windowEnd: now.addingTimeInterval(window))
        defer {
            sources[source] = state
            if state.repeats > 0 || state.suppressed > 0 {
                nextDeadline = min(nextDeadline ?? state.windowEnd, state.windowEnd)
            }
        }
        if let last = state.last, last == line {
            let afterAPause = state.lastSeenAt.map { now.timeIntervalSince($0) >= quiet } ?? false
            state.lastSeenAt = now
            // After a pause the line is logged when it comes, after the count of the quick repeats before it.
            let needed = state.repeats > 0 ? 2 : 1
            guard afterAPause, state.logged + needed <= burst else {
                state.repeats += 1
                return out
            }
            if state.repeats > 0 {
                out.append(repeated(last, state.repeats))
                state.repeats = 0
            }
            state.logged += needed
            out.append(line)
            return out
        }
        // The count of the last line's quick repeats is a line too, counted in the burst: alternating lines (a plugin's
        // log line, then its reload) otherwise logged a count between every two.
        if state.repeats > 0, let last = state.last {
            if state.logged < burst {
                out.append(repeated(last, state.repeats))
                state.logged += 1
            } else {
                state.suppressed += state.repeats
                state.lastSuppressed = last
            }
            state.repeats = 0
        }
        if state.logged < burst {
            state.logged += 1
            state.last = line
            state.lastSeenAt = now
            out.append(line)
        } else {
            state.last = nil
            state.suppressed += 1
            state.lastSuppressed = line
        }
        return out
    }

    /// The summaries of every window that has ended by `now`.
    public mutating func flush(now: Date) -> [Line] {
        var out: [Line] = []
        for (source, state) in sources where state.windowEnd <= now {
            out += summary(of: source, state)
            sources[source] = nil
        }
        nextDeadline = sources.values.lazy.filter { $0.repeats > 0 || $0.suppressed > 0 }.map(\.windowEnd).min()
        return out
    }

    /// When the next summary is due; nil when nothing is held back. Kept rather than computed: the daemon asks at every
    /// wake-up, and going through every source that ever logged would cost each second boundary one step per widget.
    /// It may come early (a source summarised by `admit` meanwhile; `flush` then finds nothing and sets it anew), never
    /// late.
    public private(set) var nextDeadline: Date?

    private func summary(of source: String, _ state: Source) -> [Line] {
        var out: [Line] = []
        if state.repeats > 0, let last = state.last { out.append(repeated(last, state.repeats)) }
        if state.suppressed > 0, let latest = state.lastSuppressed {
            let seconds = window.rounded() == window ? "\(Int(window))" : "\(window)"
            out.append(
                Line(
                    level: latest.level,
                    text: "\(source): \(state.suppressed) more lines not logged (at most \(burst) every \(seconds) s); "
                        + "the last: \(latest.text)"))
        }
        return out
    }

    private func repeated(_ line: Line, _ count: Int) -> Line {
        Line(level: line.level, text: "\(line.text) (repeated \(count) \(count == 1 ? "time" : "times"))")
    }
}
