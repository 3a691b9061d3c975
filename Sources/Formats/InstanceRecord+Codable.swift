import FoundationEssentials
import TimeZones
import Timelines

/// The record's JSON as `Codable` reads and writes it (`InstanceRecord.encoded()` writes the same bytes faster).
extension InstanceRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case instance, kind, family, entries, sequence, fallback, failure, reloadAfter
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
        reloadAfter = try container.decodeIfPresent(Double.self, forKey: .reloadAfter).map(
            Date.init(timeIntervalSince1970:))
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
        try container.encodeIfPresent(reloadAfter?.timeIntervalSince1970, forKey: .reloadAfter)
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
        content.block = try container.decodeIfPresent(StoredBlock.self, forKey: .block)?.block
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
        try container.encodeIfPresent(content.block.map(StoredBlock.init), forKey: .block)
    }
}
