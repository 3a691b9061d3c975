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
        _ now: Date, entries: [TimelineEntry], sequence: TimelineSequence? = nil, fallback: EntryContent,
        failure: String?
    ) -> EntryContent {
        var content = entry(at: now, in: entries, sequence: sequence)?.content ?? fallback
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
        after now: Date, entries: [TimelineEntry], sequence: TimelineSequence? = nil, fallback: EntryContent
    ) -> Date? {
        // A sequence's entries carry no dynamic date: its next change is its next entry, found without writing any out.
        if let sequence { return sequence.nextEntryDate(after: now) }
        let index = indexOfFirstEntry(after: now, in: entries)
        let next = index < entries.count ? entries[index].date : nil
        let current = entry(at: now, in: entries)?.content ?? fallback
        let tick = current.dynamicDate?.nextChange(after: now)
        return [next, tick].compactMap { $0 }.min()
    }

    /// The latest entry not after `now`, or the first when the timeline starts later; nil when there is none.
    public static func entry(at now: Date, in entries: [TimelineEntry], sequence: TimelineSequence? = nil)
        -> TimelineEntry?
    {
        if let sequence { return sequence.entry(at: now) }
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
