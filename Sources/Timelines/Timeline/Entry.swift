import FoundationEssentials

/// How a bar should treat an entry; waybar gets it as the CSS class, i3bar as `urgent`.
public enum EntryState: String, Sendable, Hashable, Codable, CaseIterable {
    case normal
    /// Needs attention now (i3bar `urgent: true`).
    case urgent
    /// The provider failed; this is the last good content, kept rather than blanked.
    case stale
}

/// What one entry shows: the text and how to paint it. Dates live on `TimelineEntry`.
///
/// Only the text and state are stored inline; the rest (short text, tooltip, colours, classes, dynamic date,
/// percentage, dimmed ranges, presentation) sits in one shared box that most entries do not have, so that a timeline
/// of many entries stays small (docs/PERFORMANCE.md, "Memory per instance").
public struct EntryContent: Sendable, Hashable {
    public var text: String
    /// Nil when every styling field has its default value, so equal contents have equal storage shapes.
    private var styling: StylingBox?
    // Last, so that a field of one byte can follow it in the 7 bytes a state in the middle would leave empty.
    public var state: EntryState

    public init(
        text: String,
        shortText: String? = nil,
        tooltip: String? = nil,
        foreground: Color? = nil,
        background: Color? = nil,
        state: EntryState = .normal,
        classes: [String] = [],
        dynamicDate: DynamicDate? = nil,
        percentage: Int? = nil,
        dimmedRanges: [Range<Int>] = []
    ) {
        self.text = text
        self.state = state
        // Most entries (a clock's every one) set none of them: no `Styling` is made and compared with the default.
        if shortText == nil, tooltip == nil, foreground == nil, background == nil, classes.isEmpty, dynamicDate == nil,
            percentage == nil, dimmedRanges.isEmpty
        {
            styling = nil
            return
        }
        let styling = Styling(
            shortText: shortText, tooltip: tooltip, foreground: foreground, background: background, classes: classes,
            dynamicDate: dynamicDate, percentage: percentage.map { min(max($0, 0), 100) },
            dimmedRanges: dimmedRanges)
        self.styling = styling == Styling() ? nil : StylingBox(styling)
    }

    /// A shorter form for bars that run out of room; derived from `text` when nil.
    public var shortText: String? {
        get { styling?.value.shortText }
        set { restyle { $0.shortText = newValue } }
    }

    public var tooltip: String? {
        get { styling?.value.tooltip }
        set { restyle { $0.tooltip = newValue } }
    }

    public var foreground: Color? {
        get { styling?.value.foreground }
        set { restyle { $0.foreground = newValue } }
    }

    public var background: Color? {
        get { styling?.value.background }
        set { restyle { $0.background = newValue } }
    }

    /// Extra style classes (waybar `class`), such as `favorite`.
    public var classes: [String] {
        get { styling?.value.classes ?? [] }
        set { restyle { $0.classes = newValue } }
    }

    /// A date shown as live relative or timer text, re-rendered by the daemon without a provider call.
    public var dynamicDate: DynamicDate? {
        get { styling?.value.dynamicDate }
        set { restyle { $0.dynamicDate = newValue } }
    }

    /// A level from 0 to 100 for bars that pick an icon or style by it (waybar's `percentage`).
    public var percentage: Int? {
        get { styling?.value.percentage }
        set { restyle { $0.percentage = newValue.map { min(max($0, 0), 100) } } }
    }

    /// Parts of `text` shown dimmed where a bar can style part of a block (waybar, polybar, tmux, and i3bar with
    /// pango markup): character offsets, in order, not overlapping. A to-do list dims the items that are done.
    public var dimmedRanges: [Range<Int>] {
        get { styling?.value.dimmedRanges ?? [] }
        set { restyle { $0.dimmedRanges = newValue } }
    }

    /// How the kind wants the entry laid out, for the formats to read (an i3blocks script's block properties); nil
    /// for most.
    public var presentation: EntryPresentation? {
        get { styling?.value.presentation }
        set { restyle { $0.presentation = newValue } }
    }

    /// Boxes are immutable, so a change makes a new one (or none, when everything is back to its default).
    private mutating func restyle(_ change: (inout Styling) -> Void) {
        var value = styling?.value ?? Styling()
        change(&value)
        styling = value == Styling() ? nil : StylingBox(value)
    }

    public static func == (lhs: EntryContent, rhs: EntryContent) -> Bool {
        guard lhs.text == rhs.text, lhs.state == rhs.state else { return false }
        if lhs.styling === rhs.styling { return true }
        return lhs.styling?.value == rhs.styling?.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(state)
        hasher.combine(styling?.value)
    }

    /// The fields most entries leave at their defaults.
    private struct Styling: Hashable {
        var shortText: String?
        var tooltip: String?
        var foreground: Color?
        var background: Color?
        var classes: [String] = []
        var dynamicDate: DynamicDate?
        var percentage: Int?
        var dimmedRanges: [Range<Int>] = []
        var presentation: EntryPresentation?
    }

    private final class StylingBox: Sendable {
        let value: Styling

        init(_ value: Styling) {
            self.value = value
        }
    }
}

/// One dated entry of a timeline (WidgetKit's `TimelineEntry`).
public struct TimelineEntry: Sendable, Hashable {
    /// The wall-clock instant from which this entry is current.
    public var date: Date
    public var content: EntryContent

    public init(date: Date, content: EntryContent) {
        self.date = date
        self.content = content
    }
}

/// When to ask the provider for the next timeline (WidgetKit's `TimelineReloadPolicy`).
public enum ReloadPolicy: Sendable, Hashable {
    /// Once the last entry's date has passed.
    case atEnd
    /// At this instant, even if entries remain.
    case after(Date)
    /// Only when a reload is requested.
    case never

    /// The instant of `.after`; nil for the others.
    public var afterDate: Date? {
        if case .after(let date) = self { date } else { nil }
    }
}

/// Entries in date order plus a reload policy (WidgetKit's `Timeline`). The entries are stored, or computed on demand
/// from a `TimelineSequence` (a clock), which costs the same to hold and to reload whatever its length.
public struct Timeline: Sendable, Hashable {
    /// The stored entries; empty when the timeline is a sequence.
    public private(set) var entries: [TimelineEntry]
    /// The rule that gives the entries, when they are computed rather than stored.
    public var sequence: TimelineSequence? { sequenceBox?.sequence }

    /// What `body` answers about the sequence, read in place; nil when the timeline has none. The `sequence` property
    /// gives a copy, 280 bytes and a retain and a release of each of its references (the format, the zone's tables and
    /// names), which the engine would make at every swap of a clock (docs/PERFORMANCE.md, "Swap cost").
    public func withSequence<Result>(_ body: (TimelineSequence) -> Result) -> Result? {
        guard let sequenceBox else { return nil }
        return body(sequenceBox.sequence)
    }
    /// The sequence is 280 bytes (its zone's table is inline) and most timelines have none: boxed, a timeline is 40
    /// bytes instead of 312, and the engine holds one inline in each instance's state.
    private var sequenceBox: SequenceBox?
    public var policy: ReloadPolicy
    /// Things the provider wants said in the daemon's log (an exec command's output was cut, say).
    public var notes: [String] = []

    /// Sorts the entries by date; of entries sharing a date the last one given wins.
    public init(entries: [TimelineEntry], policy: ReloadPolicy) {
        self.policy = policy
        // Most timelines come in order already (a quote's one entry, a clock's minutes): taken as given, with no
        // sort or copy; a reload's timeline is made before its file is written.
        if zip(entries, entries.dropFirst()).allSatisfy({ $0.date < $1.date }) {
            self.entries = entries
            return
        }
        var byDate: [TimelineEntry] = []
        byDate.reserveCapacity(entries.count)
        // A stable sort keeps the given order among equal dates, so "last wins" is the last of each run.
        for entry in entries.enumerated().sorted(by: { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) })
            .map(\.element)
        {
            if let last = byDate.last, last.date == entry.date {
                byDate[byDate.count - 1] = entry
            } else {
                byDate.append(entry)
            }
        }
        self.entries = byDate
    }

    /// A timeline whose entries are computed from `sequence`.
    public init(sequence: TimelineSequence, policy: ReloadPolicy) {
        entries = []
        sequenceBox = SequenceBox(sequence)
        self.policy = policy
    }

    public static func == (lhs: Timeline, rhs: Timeline) -> Bool {
        lhs.entries == rhs.entries && lhs.sequence == rhs.sequence && lhs.policy == rhs.policy && lhs.notes == rhs.notes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries)
        hasher.combine(sequence)
        hasher.combine(policy)
        hasher.combine(notes)
    }

    /// Immutable, so copies of a timeline share it.
    private final class SequenceBox: Sendable {
        let sequence: TimelineSequence

        init(_ sequence: TimelineSequence) {
            self.sequence = sequence
        }
    }

    /// The entry to show at `now`: the latest not after `now`, or the first before the timeline starts.
    public func entry(at now: Date) -> TimelineEntry? {
        withSequence { $0.entry(at: now) } ?? ShownContent.entry(at: now, in: entries)
    }

    /// The date of the first entry after `now`: when the shown entry next changes.
    public func nextEntryDate(after now: Date) -> Date? {
        if let sequence { return sequence.nextEntryDate(after: now) }
        let index = ShownContent.indexOfFirstEntry(after: now, in: entries)
        return index < entries.count ? entries[index].date : nil
    }

    /// The date of the last entry, stored or computed; nil when there is none.
    public var lastEntryDate: Date? {
        sequence?.lastDate ?? entries.last?.date
    }
}
