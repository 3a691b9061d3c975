import FoundationEssentials
import TimeZones

/// A timeline's entries given by a rule instead of stored: entry `k` is dated `start + k × step` and shows that date
/// written out with a strftime format in a time zone. What a clock is, in a few hundred bytes: an hour of per-second
/// entries is a start, a step, a count, a format and a zone, and a reload makes no entries at all.
///
/// Everything the rule needs is plain data (the zone by its identifier), so an instance's record carries the sequence
/// and `widgetd show`, `show --follow` and `widgetd bar` work out the text for any instant from the record alone.
public struct TimelineSequence: Sendable {
    /// The date of the first entry.
    public let start: Date
    /// Seconds between entries (1 for a per-second clock, 60 for a per-minute one).
    public let step: Int
    /// How many entries: the last is dated `start + (count − 1) × step`.
    public let count: Int
    public let formatter: TimeFormat
    public let timeZone: Zone
    /// The zone's offset and `%Z` name from `start` until its next transition: most wake-ups of a clock then need no
    /// time-zone lookup at all.
    private let offsetSpan: OffsetSpan

    private struct OffsetSpan: Sendable {
        var from: Int
        var until: Int?
        var type: LocalTimeType
    }

    public init(start: Date, step: Int, count: Int, format: String, timeZone: Zone) {
        self.start = start
        self.step = max(step, 1)
        self.count = max(count, 1)
        formatter = TimeFormat(format)
        self.timeZone = timeZone
        let first = start.wholeSecondsSince1970
        offsetSpan = OffsetSpan(
            from: first, until: timeZone.nextTransition(after: first), type: timeZone.offset(at: first))
    }

    public var format: String { formatter.format }

    /// The date of the last entry.
    public var lastDate: Date { date(ofEntry: count - 1) }

    public func date(ofEntry index: Int) -> Date {
        start.addingTimeInterval(TimeInterval(index) * TimeInterval(step))
    }

    /// The index of the latest entry not after `now`, or 0 before the sequence starts.
    func index(at now: Date) -> Int {
        let elapsed = now.timeIntervalSince(start)
        guard elapsed > 0 else { return 0 }
        let index = (elapsed / TimeInterval(step)).rounded(.down)
        return index >= TimeInterval(count - 1) ? count - 1 : Int(index)
    }

    /// The entry to show at `now`, as `Timeline.entry(at:)` picks one from stored entries.
    public func entry(at now: Date) -> TimelineEntry {
        let date = date(ofEntry: index(at: now))
        return TimelineEntry(date: date, content: EntryContent(text: text(at: date)))
    }

    /// The date of the first entry after `now`; nil after the last.
    public func nextEntryDate(after now: Date) -> Date? {
        if now < start { return start }
        let next = index(at: now) + 1
        return next < count ? date(ofEntry: next) : nil
    }

    /// The offset in force at `start`, which a record keeps beside the zone's name.
    public var startOffset: Int { offsetSpan.type.utcOffset }

    /// `date` written out by the format in the zone.
    public func text(at date: Date) -> String {
        let instant = date.wholeSecondsSince1970
        guard instant >= offsetSpan.from, offsetSpan.until.map({ instant < $0 }) ?? true else {
            return formatter.string(at: instant, in: timeZone)
        }
        let type = offsetSpan.type
        return formatter.string(from: CivilDateTime(localSeconds: instant + type.utcOffset), type: type)
    }
}

extension TimelineSequence: Hashable {
    // The offset span is derived from the rest.
    public static func == (lhs: TimelineSequence, rhs: TimelineSequence) -> Bool {
        lhs.start == rhs.start && lhs.step == rhs.step && lhs.count == rhs.count && lhs.formatter == rhs.formatter
            && lhs.timeZone.identifier == rhs.timeZone.identifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(start)
        hasher.combine(step)
        hasher.combine(count)
        hasher.combine(formatter)
        hasher.combine(timeZone.identifier)
    }
}
