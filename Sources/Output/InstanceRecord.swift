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

    public init(
        instance: String, kind: String, family: Family, entries: [TimelineEntry], sequence: TimelineSequence? = nil,
        fallback: EntryContent, failure: String? = nil
    ) {
        self.instance = instance
        self.kind = kind
        self.family = family
        self.entries = entries
        self.sequence = sequence
        self.fallback = fallback
        self.failure = failure
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
            finite(fallback.dynamicDate?.date)
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

    /// Block properties, keys sorted as `BlockProperties.CodingKeys`.
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

extension InstanceRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case instance, kind, family, entries, sequence, fallback, failure
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        instance = try container.decode(String.self, forKey: .instance)
        kind = try container.decode(String.self, forKey: .kind)
        family = try container.decode(Family.self, forKey: .family)
        entries = try container.decode([StoredContent].self, forKey: .entries).map { stored in
            guard let date = stored.date else {
                throw DecodingError.dataCorruptedError(
                    forKey: .entries, in: container, debugDescription: "a timeline entry without a date")
            }
            return TimelineEntry(date: date, content: stored.content)
        }
        sequence = try container.decodeIfPresent(StoredSequence.self, forKey: .sequence)?.sequence
        fallback = try container.decode(StoredContent.self, forKey: .fallback).content
        failure = try container.decodeIfPresent(String.self, forKey: .failure)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(instance, forKey: .instance)
        try container.encode(kind, forKey: .kind)
        try container.encode(family, forKey: .family)
        try container.encode(entries.map { StoredContent($0.content, date: $0.date) }, forKey: .entries)
        try container.encodeIfPresent(sequence.map(StoredSequence.init), forKey: .sequence)
        try container.encode(StoredContent(fallback, date: nil), forKey: .fallback)
        try container.encodeIfPresent(failure, forKey: .failure)
    }
}

/// A computed timeline's rule as the record stores it: the start in seconds since 1970, the zone by identifier and by
/// its offset at the start (for a reader that cannot name the zone).
private struct StoredSequence: Codable {
    var sequence: TimelineSequence

    init(_ sequence: TimelineSequence) {
        self.sequence = sequence
    }

    private enum CodingKeys: String, CodingKey {
        case count, format, offset, start, step, zone
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let step = try container.decode(Int.self, forKey: .step)
        let count = try container.decode(Int.self, forKey: .count)
        guard step > 0, count > 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .step, in: container, debugDescription: "a sequence needs a positive step and count")
        }
        let zoneName = try container.decode(String.self, forKey: .zone)
        // The name is a zoneinfo name, or the daemon's `TZ` when that was a POSIX rule (`CET-1CEST,M3.5.0,M10.5.0/3`);
        // a zone the reader cannot find (removed from its zoneinfo since) is read at its offset at the start.
        let offset = try container.decodeIfPresent(Int.self, forKey: .offset)
        let start = try container.decode(Double.self, forKey: .start)
        // One name can be two zones: `GMT+5` is ICU's custom name (east) in `timezone:` and a POSIX rule (west) in
        // `TZ`. The offset the record kept at its start says which was meant.
        let named = try? Zone.load(identifier: zoneName)
        let rule = (try? PosixTZRule(parsing: zoneName)).map { Zone(identifier: zoneName, rule: $0) }
        let agrees = { (zone: Zone) in offset.map { zone.offset(at: Int(start.rounded(.down))).utcOffset == $0 } ?? true
        }
        let zone =
            named.flatMap { agrees($0) ? $0 : nil } ?? rule.flatMap { agrees($0) ? $0 : nil } ?? named ?? rule
            ?? offset.map { Zone(fixedOffset: $0) }
        guard let zone else {
            throw DecodingError.dataCorruptedError(
                forKey: .zone, in: container, debugDescription: "unknown time zone \(zoneName)")
        }
        sequence = TimelineSequence(
            start: Date(timeIntervalSince1970: start), step: step,
            count: count, format: try container.decode(String.self, forKey: .format), timeZone: zone)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence.count, forKey: .count)
        try container.encode(sequence.format, forKey: .format)
        try container.encode(sequence.startOffset, forKey: .offset)
        try container.encode(sequence.start.timeIntervalSince1970, forKey: .start)
        try container.encode(sequence.step, forKey: .step)
        try container.encode(sequence.timeZone.identifier, forKey: .zone)
    }
}

/// An entry's content (and date, for a timeline entry) as the record stores it: dates as seconds since 1970.
private struct StoredContent: Codable {
    var date: Date?
    var content: EntryContent

    init(_ content: EntryContent, date: Date?) {
        self.content = content
        self.date = date
    }

    private enum CodingKeys: String, CodingKey {
        case date, text, shortText, tooltip, foreground, background, state, classes, dynamicDate, percentage, dimmed
        case block
    }

    private enum DynamicDateKeys: String, CodingKey {
        case date, style
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        date = try container.decodeIfPresent(Double.self, forKey: .date).map(Date.init(timeIntervalSince1970:))
        var dynamicDate: DynamicDate?
        if container.contains(.dynamicDate) {
            let nested = try container.nestedContainer(keyedBy: DynamicDateKeys.self, forKey: .dynamicDate)
            dynamicDate = DynamicDate(
                Date(timeIntervalSince1970: try nested.decode(Double.self, forKey: .date)),
                style: try nested.decode(DynamicDate.Style.self, forKey: .style))
        }
        content = EntryContent(
            text: try container.decode(String.self, forKey: .text),
            shortText: try container.decodeIfPresent(String.self, forKey: .shortText),
            tooltip: try container.decodeIfPresent(String.self, forKey: .tooltip),
            foreground: try container.decodeIfPresent(Color.self, forKey: .foreground),
            background: try container.decodeIfPresent(Color.self, forKey: .background),
            state: try container.decodeIfPresent(EntryState.self, forKey: .state) ?? .normal,
            classes: try container.decodeIfPresent([String].self, forKey: .classes) ?? [],
            dynamicDate: dynamicDate,
            percentage: try container.decodeIfPresent(Int.self, forKey: .percentage),
            dimmedRanges: try Self.ranges(container.decodeIfPresent([[Int]].self, forKey: .dimmed) ?? []))
        content.block = try container.decodeIfPresent(BlockProperties.self, forKey: .block)
    }

    /// `[[start, end], …]` as ranges, refusing pairs that are not one, backwards or out of order.
    private static func ranges(_ pairs: [[Int]]) throws -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for pair in pairs {
            guard pair.count == 2, pair[0] >= 0, pair[0] <= pair[1], pair[0] >= (ranges.last?.upperBound ?? 0) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: [], debugDescription: "bad dimmed range \(pair)"))
            }
            ranges.append(pair[0]..<pair[1])
        }
        return ranges
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(date?.timeIntervalSince1970, forKey: .date)
        try container.encode(content.text, forKey: .text)
        try container.encodeIfPresent(content.shortText, forKey: .shortText)
        try container.encodeIfPresent(content.tooltip, forKey: .tooltip)
        try container.encodeIfPresent(content.foreground, forKey: .foreground)
        try container.encodeIfPresent(content.background, forKey: .background)
        // Defaults are left out: a per-second clock's record holds 3,600 entries of a date and a text.
        if content.state != .normal { try container.encode(content.state, forKey: .state) }
        if !content.classes.isEmpty { try container.encode(content.classes, forKey: .classes) }
        if let dynamicDate = content.dynamicDate {
            var nested = container.nestedContainer(keyedBy: DynamicDateKeys.self, forKey: .dynamicDate)
            try nested.encode(dynamicDate.date.timeIntervalSince1970, forKey: .date)
            try nested.encode(dynamicDate.style, forKey: .style)
        }
        try container.encodeIfPresent(content.percentage, forKey: .percentage)
        if !content.dimmedRanges.isEmpty {
            try container.encode(content.dimmedRanges.map { [$0.lowerBound, $0.upperBound] }, forKey: .dimmed)
        }
        try container.encodeIfPresent(content.block, forKey: .block)
    }
}
