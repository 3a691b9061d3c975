import FoundationEssentials

/// The one rule for what a widget shows at an instant, shared by the engine and by everything that reads an
/// instance's record (`widgetd show`, `list`, a restarted daemon), so they can never disagree.
public enum ShownContent {
    /// The text colour of an entry kept while its provider fails.
    static let staleForeground = Color(red: 0x88, green: 0x88, blue: 0x88)

    /// The current entry of `entries` (sorted by date) or of `sequence` when the timeline is computed, else `fallback`;
    /// marked stale and greyed, with the reason in its tooltip, while the provider fails; dynamic dates written out for
    /// `now`.
    public static func at(
        _ now: Date, entries: [TimelineEntry], sequence: TimelineSequence?, fallback: EntryContent, failure: String?
    ) -> EntryContent {
        if let sequence { return at(now, sequence: sequence, failure: failure) }
        return at(now, entries: entries, fallback: fallback, failure: failure)
    }

    /// `at(_:entries:sequence:…)` for stored entries. Each case has its own function: with an optional sequence
    /// defaulted to nil, every call would make and destroy a nil of the sequence's 280 bytes, several times in each
    /// reload (docs/PERFORMANCE.md, "Reload latency").
    public static func at(
        _ now: Date, entries: [TimelineEntry], fallback: EntryContent, failure: String?
    ) -> EntryContent {
        marked(entry(at: now, in: entries)?.content ?? fallback, failure: failure, now: now)
    }

    /// `at(_:entries:sequence:…)` for a computed timeline, which always has an entry.
    public static func at(_ now: Date, sequence: TimelineSequence, failure: String?) -> EntryContent {
        marked(sequence.entry(at: now).content, failure: failure, now: now)
    }

    /// `content` marked stale while the provider fails, with its dynamic dates written out for `now`.
    private static func marked(_ content: EntryContent, failure: String?, now: Date) -> EntryContent {
        var content = content
        if let failure {
            content.state = .stale
            content.tooltip = "\(content.tooltip.map { $0 + "\n" } ?? "")\(failure)"
            // Greyed where a bar takes a colour (i3bar, i3blocks, polybar, tmux): a failing widget must not look
            // healthy. waybar gets the `stale` class instead, for its style sheet.
            content.foreground = staleForeground
        }
        return content.resolved(at: now)
    }

    /// The first instant after `now` at which `at(_:…)` may give something else without any new record: the next
    /// entry's date, or the next tick of the current entry's dynamic date. Nil when neither comes.
    public static func nextChange(
        after now: Date, entries: [TimelineEntry], sequence: TimelineSequence?, fallback: EntryContent
    ) -> Date? {
        // A sequence's entries carry no dynamic date: its next change is its next entry, found without writing any out.
        if let sequence { return sequence.nextEntryDate(after: now) }
        return nextChange(after: now, entries: entries, fallback: fallback)
    }

    /// `nextChange(after:entries:sequence:fallback:)` for stored entries.
    public static func nextChange(after now: Date, entries: [TimelineEntry], fallback: EntryContent) -> Date? {
        let index = indexOfFirstEntry(after: now, in: entries)
        let next = index < entries.count ? entries[index].date : nil
        let current = (index == 0 ? entries.first : entries[index - 1])?.content ?? fallback
        guard let tick = current.dynamicDate?.nextChange(after: now) else { return next }
        return next.map { min($0, tick) } ?? tick
    }

    /// The latest entry not after `now`, or the first when the timeline starts later; nil when there is none.
    public static func entry(at now: Date, in entries: [TimelineEntry], sequence: TimelineSequence?)
        -> TimelineEntry?
    {
        if let sequence { return sequence.entry(at: now) }
        return entry(at: now, in: entries)
    }

    /// `entry(at:in:sequence:)` for stored entries.
    public static func entry(at now: Date, in entries: [TimelineEntry]) -> TimelineEntry? {
        guard let first = entries.first else { return nil }
        let after = indexOfFirstEntry(after: now, in: entries)
        return after == 0 ? first : entries[after - 1]
    }

    /// Binary search: entries are sorted, and a clock's timeline holds thousands.
    static func indexOfFirstEntry(after now: Date, in entries: [TimelineEntry]) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].date <= now { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
