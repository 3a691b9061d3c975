import FoundationEssentials
import Runtime

/// The warnings `widgetd bar` writes on its standard error for clicks it cannot pass on (the daemon's FIFO full or
/// gone), bounded as the daemon's log is (`LogRateLimiter`): a few lines, then one count of the rest per window.
///
/// i3bar and sway keep a status command's standard error in their own logs (or the session's journal): a user
/// clicking a stopped daemon's widgets, or a scroll wheel spun over one, must not write a line for every click there.
struct DroppedClickLog {
    private var limiter = LogRateLimiter(burst: 3, window: 5)

    /// The lines to write now for a click on `instance` dropped for `reason`.
    mutating func dropped(_ instance: String, because reason: some Error, now: Date) -> [String] {
        limiter.admit(
            LogRateLimiter.Line(level: .warning, text: "click on '\(instance)' dropped: \(reason)"), from: "clicks",
            now: now
        ).map(Self.written)
    }

    /// The counts of the clicks held back in every window that ended by `now`.
    mutating func flush(now: Date) -> [String] {
        limiter.flush(now: now).map(Self.written)
    }

    /// When the next count is due, for the bar's timer; nil when no click is held back.
    var nextDeadline: Date? { limiter.nextDeadline }

    private static func written(_ line: LogRateLimiter.Line) -> String { "widgetd: warning: \(line.text)" }
}
