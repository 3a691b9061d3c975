import Foundation

/// How a bar should treat an entry; waybar gets it as the CSS class, i3bar as `urgent`.
public enum EntryState: String, Sendable, Hashable, Codable, CaseIterable {
    case normal
    /// Needs attention now (i3bar `urgent: true`).
    case urgent
    /// The provider failed; this is the last good content, kept rather than blanked.
    case stale
}

/// What one entry shows: the text and how to paint it. Dates live on `TimelineEntry`.
public struct EntryContent: Sendable, Hashable, Codable {
    public var text: String
    /// A shorter form for bars that run out of room; derived from `text` when nil.
    public var shortText: String?
    public var tooltip: String?
    public var foreground: Color?
    public var background: Color?
    public var state: EntryState
    /// Extra style classes (waybar `class`), such as `favorite`.
    public var classes: [String]
    /// A date shown as live relative or timer text, re-rendered by the daemon without a provider call.
    public var dynamicDate: DynamicDate?

    public init(
        text: String,
        shortText: String? = nil,
        tooltip: String? = nil,
        foreground: Color? = nil,
        background: Color? = nil,
        state: EntryState = .normal,
        classes: [String] = [],
        dynamicDate: DynamicDate? = nil
    ) {
        self.text = text
        self.shortText = shortText
        self.tooltip = tooltip
        self.foreground = foreground
        self.background = background
        self.state = state
        self.classes = classes
        self.dynamicDate = dynamicDate
    }
}

/// One dated entry of a timeline (WidgetKit's `TimelineEntry`).
public struct TimelineEntry: Sendable, Hashable, Codable {
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
}

/// Entries in date order plus a reload policy (WidgetKit's `Timeline`).
public struct Timeline: Sendable, Hashable {
    public private(set) var entries: [TimelineEntry]
    public var policy: ReloadPolicy
    /// Things the provider wants said in the daemon's log (an exec command's output was cut, say).
    public var notes: [String] = []

    /// Sorts the entries by date; of entries sharing a date the last one given wins.
    public init(entries: [TimelineEntry], policy: ReloadPolicy) {
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
        self.policy = policy
    }

    /// The entry to show at `now`: the latest not after `now`, or the first before the timeline starts.
    public func entry(at now: Date) -> TimelineEntry? {
        ShownContent.entry(at: now, in: entries)
    }

    /// The date of the first entry after `now`: when the shown entry next changes.
    public func nextEntryDate(after now: Date) -> Date? {
        let index = ShownContent.indexOfFirstEntry(after: now, in: entries)
        return index < entries.count ? entries[index].date : nil
    }
}
