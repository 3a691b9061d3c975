import Basics
import FoundationEssentials

/// A date an entry shows as live text that the daemon re-renders itself, with no provider call
/// (WidgetKit's `Text(date, style: .relative)` and `.timer`).
public struct DynamicDate: Sendable, Hashable, Codable {
    public enum Style: String, Sendable, Hashable, Codable {
        /// "in 5 min", "2 h ago": changes on the boundary of its largest unit.
        case relative
        /// "04:59", "1:02:03": a running countdown to (or count-up from) the date, changing every second.
        case timer
    }

    public var date: Date
    public var style: Style

    public init(_ date: Date, style: Style) {
        self.date = date
        self.style = style
    }

    /// Where the rendered date goes in an entry's text; without it, the date follows the text after a space.
    public static let token = "{date}"

    /// The text at `now`: whole units of the largest unit that fits, rounded down on both sides, as people say it
    /// ("in 1 h" with an hour and a minute left, "1 h ago" an hour and a minute after). Before the date the amount
    /// drops as each boundary `date − k × unit` is reached (at exactly an hour left, "in 59 min"), after it as each
    /// `date + k × unit` is; either way the text changes exactly at `date + k × unit`, which is what
    /// `nextChange(after:)` relies on. Rounding up before the date, as it was, read 1 h 0 min 1 s as "in 2 h" and
    /// 59.5 s as "in 60 s".
    public func text(at now: Date) -> String {
        let elapsed = now.timeIntervalSince(date)
        switch style {
        case .timer:
            let seconds = elapsed < 0 ? Int((-elapsed).rounded(.up)) : Int(elapsed.rounded(.down))
            let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
            let clock =
                hours > 0
                ? "\(hours):\(Self.twoDigits(minutes)):\(Self.twoDigits(rest))"
                : "\(Self.twoDigits(minutes)):\(Self.twoDigits(rest))"
            return clock
        case .relative:
            let unit = Self.relativeUnit(forElapsed: elapsed)
            let step = TimeInterval(unit.seconds)
            if elapsed < 0 {
                // Whole units left, not counting the one being reached: the amount as the boundary passes.
                let amount = Int((-elapsed / step).rounded(.up)) - 1
                return amount == 0 ? "now" : "in \(amount) \(unit.name)"
            }
            let amount = Int((elapsed / step).rounded(.down))
            return amount == 0 ? "now" : "\(amount) \(unit.name) ago"
        }
    }

    /// The first instant after `now` at which `text(at:)` may give something else.
    public func nextChange(after now: Date) -> Date {
        let elapsed = now.timeIntervalSince(date)
        let unit = style == .timer ? 1 : Self.relativeUnit(forElapsed: elapsed).seconds
        let step = TimeInterval(unit)
        var next = date.addingTimeInterval(((elapsed / step).rounded(.down) + 1) * step)
        if next <= now { next = now.addingTimeInterval(step) }
        return next
    }

    /// The unit shown `elapsed` seconds after the date: the largest one the amount reaches. Before the date a
    /// boundary belongs to the smaller unit (exactly an hour left reads "in 59 min"), after it to the larger ("1 h
    /// ago"), as the amounts in `text(at:)` round.
    private static func relativeUnit(forElapsed elapsed: TimeInterval) -> (seconds: Int, name: String) {
        let seconds = abs(elapsed)
        let before = elapsed < 0
        if before ? seconds <= 60 : seconds < 60 { return (1, "s") }
        if before ? seconds <= 3600 : seconds < 3600 { return (60, "min") }
        if before ? seconds <= 86_400 : seconds < 86_400 { return (3600, "h") }
        return (86_400, "d")
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

extension EntryContent {
    /// The content as it reads at `now`, its dynamic date (if any) written into the text.
    public func resolved(at now: Date) -> EntryContent {
        guard let dynamicDate else { return self }
        let rendered = dynamicDate.text(at: now)
        func fill(_ text: String) -> String {
            if text.contains(DynamicDate.token) {
                return text.replacingAll(DynamicDate.token, with: rendered)
            }
            // One space between the text and the date: a text that ends in one already ("🍅 ") gets none more.
            if text.isEmpty || text.last?.isWhitespace == true { return text + rendered }
            return text + " " + rendered
        }
        var copy = self
        copy.text = fill(text)
        // Offsets into the text no longer hold once the date is written into it.
        if copy.text != text { copy.dimmedRanges = [] }
        copy.shortText = shortText.map(fill)
        copy.tooltip = tooltip.map { $0.replacingAll(DynamicDate.token, with: rendered) }
        copy.dynamicDate = nil
        return copy
    }
}
