import FoundationEssentials
import TimeZones
import Timelines

/// What an instance shows over time, kept as `<instance>.json` beside the bar files: the entries of its last good
/// timeline (or, for a computed timeline such as a clock's, the rule that gives them), what it shows without one, and
/// why its provider last failed.
///
/// A record, not the current entry, so that the daemon writes it only when a timeline arrives or a reload fails,
/// never on an entry swap: a swap writes the bar files alone. Readers (`widgetd show`, `list`, a restarted daemon)
/// take the entry for any instant from it by the engine's own rule, `content(at:)`, and `show --follow` knows when
/// the next entry is due without asking anyone, as a WidgetKit host does with a timeline.
///
/// Dates are seconds since 1970 (JSON numbers), not ISO 8601 strings: they decode back to exactly the same `Date`
/// (ISO 8601 keeps milliseconds at best), they read the same whatever date strategy a coder is set to (`Date`'s own
/// `Codable` writes seconds since 2001), and scripts turn them into times with `jq todate` or `date -d @`.
public struct InstanceRecord: Sendable, Hashable {
    public var instance: String
    public var kind: String
    public var family: Family
    /// The last good timeline's entries, by date; empty before the first timeline.
    public var entries: [TimelineEntry]
    /// The rule giving the entries of a computed timeline (start, step, count, strftime format, zone); `entries` is
    /// then empty. Records written before computed timelines existed have none and keep working.
    public var sequence: TimelineSequence?
    /// Shown when there is no entry: the entry kept from the previous run, else the placeholder.
    public var fallback: EntryContent
    /// Why the provider's last call failed; the entries are then shown marked stale.
    public var failure: String?
    /// When the timeline's policy asks for the next one (`.after`); nil for `.atEnd` and `.never`. `widgetd list` shows
    /// it as the next reload when the status file says the reload follows the policy: a widget sampled every 5 s then
    /// changes its record alone, not its status file too. A record left as it was because its sample brought nothing
    /// new (`steadyView`) has a date that passed; `list` then takes the next one from the kind's rule.
    public var reloadAfter: Date?

    public init(
        instance: String, kind: String, family: Family, entries: [TimelineEntry], sequence: TimelineSequence? = nil,
        fallback: EntryContent, failure: String? = nil, reloadAfter: Date? = nil
    ) {
        self.instance = instance
        self.kind = kind
        self.family = family
        self.entries = entries
        self.sequence = sequence
        self.fallback = fallback
        self.failure = failure
        self.reloadAfter = reloadAfter
    }

    /// What readers take from a record of one entry that asks for a later reload, as a hash of everything but the
    /// dates; nil for any other record. Two such records with the same view show the same from their entry's date on:
    /// a sample that read the same value as the one before changes only the dates, and its record need not be
    /// written again (`OutputWriter.writeRecord`).
    public var steadyView: Int? {
        guard entries.count == 1, sequence == nil, reloadAfter != nil else { return nil }
        var hasher = Hasher()
        hasher.combine(instance)
        hasher.combine(kind)
        hasher.combine(family)
        hasher.combine(entries[0].content)
        hasher.combine(fallback)
        hasher.combine(failure)
        return hasher.finalize()
    }

    /// What the instance shows at `now`, by the engine's rule.
    public func content(at now: Date) -> EntryContent {
        ShownContent.at(now, entries: entries, sequence: sequence, fallback: fallback, failure: failure)
    }

    /// The entry current at `now` as its provider gave it (dynamic dates unresolved, not marked stale), else the
    /// fallback: what a restarted daemon shows until its first timeline arrives.
    public func keptContent(at now: Date) -> EntryContent {
        ShownContent.entry(at: now, in: entries, sequence: sequence)?.content ?? fallback
    }

    /// The record cut down to the entry current at `now`: what a restarted daemon needs to paint the widget until its
    /// first timeline arrives, without keeping a clock's hour of entries on disk. A sequence is kept whole: it is small.
    public func kept(at now: Date) -> InstanceRecord {
        var kept = self
        guard sequence == nil else { return kept }
        kept.entries = ShownContent.entry(at: now, in: entries).map { [$0] } ?? []
        return kept
    }

    /// The first instant after `now` at which `content(at:)` may change: the next entry or dynamic-date tick.
    public func nextChange(after now: Date) -> Date? {
        ShownContent.nextChange(after: now, entries: entries, sequence: sequence, fallback: fallback)
    }

    /// The file contents `format` gets at `now`.
    public func rendered(
        as format: OutputFormat, at now: Date = Date(), markup: Bool = false, backgroundsShow: Bool? = nil
    ) -> String {
        Renderer.render(
            content(at: now), family: family, format: format, instance: instance, markup: markup,
            backgroundsShow: backgroundsShow)
    }

    /// The record as written to disk: JSON with sorted keys, so equal records give equal bytes, and a final newline.
    ///
    /// Throws `EncodingError` only for a date that is not finite.
    public func encoded() throws -> [UInt8] {
        let finite = { (date: Date?) in date?.timeIntervalSince1970.isFinite ?? true }
        guard
            entries.allSatisfy({ finite($0.date) && finite($0.content.dynamicDate?.date) }),
            finite(sequence?.start),
            finite(fallback.dynamicDate?.date),
            finite(reloadAfter)
        else {
            return try encodedByJSONEncoder()  // throws the EncodingError callers expect
        }
        var json = JSONBytes(capacity: 160 + entries.count * 96)
        json.beginObject()
        json.key("entries")
        json.array(entries) { json, entry in Self.write(entry.content, date: entry.date, to: &json) }
        if let failure {
            json.key("failure")
            json.string(failure)
        }
        json.key("fallback")
        Self.write(fallback, date: nil, to: &json)
        json.key("family")
        json.string(family.rawValue)
        json.key("instance")
        json.string(instance)
        json.key("kind")
        json.string(kind)
        if let reloadAfter {
            json.key("reloadAfter")
            json.number(reloadAfter.timeIntervalSince1970)
        }
        if let sequence {
            json.key("sequence")
            Self.write(sequence, to: &json)
        }
        json.endObject()
        json.newline()
        return json.bytes
    }

    /// The record as JSONEncoder writes it; `encoded()` gives the same bytes, faster.
    public func encodedByJSONEncoder() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(self)) + [UInt8(ascii: "\n")]
    }

    /// A sequence, keys sorted as `StoredSequence.CodingKeys`.
    private static func write(_ sequence: TimelineSequence, to json: inout JSONBytes) {
        json.beginObject()
        json.key("count")
        json.number(Double(sequence.count))
        json.key("format")
        json.string(sequence.format)
        json.key("offset")
        json.number(Double(sequence.startOffset))
        json.key("start")
        json.number(sequence.start.timeIntervalSince1970)
        json.key("step")
        json.number(Double(sequence.step))
        json.key("zone")
        json.string(sequence.timeZone.identifier)
        json.endObject()
    }

    /// One content object, its keys in sorted order (`date` falls between `classes` and `dynamicDate`).
    private static func write(_ content: EntryContent, date: Date?, to json: inout JSONBytes) {
        json.beginObject()
        if let background = content.background {
            json.key("background")
            json.string(background.hex)
        }
        if let block = content.block {
            json.key("block")
            write(block, to: &json)
        }
        if !content.classes.isEmpty {
            json.key("classes")
            json.array(content.classes) { json, name in json.string(name) }
        }
        if let date {
            json.key("date")
            json.number(date.timeIntervalSince1970)
        }
        if !content.dimmedRanges.isEmpty {
            json.key("dimmed")
            json.array(content.dimmedRanges) { json, range in
                json.array([range.lowerBound, range.upperBound]) { json, bound in json.number(Double(bound)) }
            }
        }
        if let dynamicDate = content.dynamicDate {
            json.key("dynamicDate")
            json.beginObject()
            json.key("date")
            json.number(dynamicDate.date.timeIntervalSince1970)
            json.key("style")
            json.string(dynamicDate.style.rawValue)
            json.endObject()
        }
        if let foreground = content.foreground {
            json.key("foreground")
            json.string(foreground.hex)
        }
        if let percentage = content.percentage {
            json.key("percentage")
            json.number(Double(percentage))
        }
        if let shortText = content.shortText {
            json.key("shortText")
            json.string(shortText)
        }
        if content.state != .normal {
            json.key("state")
            json.string(content.state.rawValue)
        }
        json.key("text")
        json.string(content.text)
        if let tooltip = content.tooltip {
            json.key("tooltip")
            json.string(tooltip)
        }
        json.endObject()
    }

    /// Block properties, keys sorted as `StoredBlock.CodingKeys`.
    private static func write(_ block: BlockProperties, to json: inout JSONBytes) {
        json.beginObject()
        if let align = block.align {
            json.key("align")
            json.string(align)
        }
        if block.isMarkup {
            json.key("markup")
            json.bool(true)
        }
        switch block.minWidth {
        case .pixels(let pixels)?:
            json.key("minWidthPixels")
            json.number(Double(pixels))
        case .text(let text)?:
            json.key("minWidthText")
            json.string(text)
        case nil: break
        }
        if let separator = block.separator {
            json.key("separator")
            json.bool(separator)
        }
        if let width = block.separatorBlockWidth {
            json.key("separatorBlockWidth")
            json.number(Double(width))
        }
        if block.keepsWholeText {
            json.key("whole")
            json.bool(true)
        }
        json.endObject()
    }
}
