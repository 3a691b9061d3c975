import Foundation

/// The canonical record of an instance's current entry, kept as `<instance>.json` beside the bar files so that any
/// format can be rendered later (`widgetd show NAME --format F`) without asking the provider again.
///
/// `date` is written as seconds since 1970 (a JSON number), not an ISO 8601 string: it decodes back to exactly the
/// same `Date` (ISO 8601 keeps milliseconds at best), it reads the same whatever date strategy a coder is set to
/// (`Date`'s own `Codable` writes seconds since 2001 and an ISO string needs a matching strategy, so a mismatched
/// decoder would silently be off by 31 years or fail), and scripts turn it into a time with `jq todate` or `date -d @`.
public struct CanonicalEntry: Codable, Sendable, Hashable {
    public var instance: String
    public var kind: String
    public var family: Family
    /// When the entry became current.
    public var date: Date
    public var text: String
    public var shortText: String?
    public var tooltip: String?
    public var foreground: Color?
    public var background: Color?
    public var state: EntryState
    public var classes: [String]
    /// Kept unresolved, so that a later render shows the date as it reads then.
    public var dynamicDate: DynamicDate?

    public init(instance: String, kind: String, family: Family, date: Date, content: EntryContent) {
        self.instance = instance
        self.kind = kind
        self.family = family
        self.date = date
        self.text = content.text
        self.shortText = content.shortText
        self.tooltip = content.tooltip
        self.foreground = content.foreground
        self.background = content.background
        self.state = content.state
        self.classes = content.classes
        self.dynamicDate = content.dynamicDate
    }

    /// The entry's content, as a provider gave it.
    public var content: EntryContent {
        EntryContent(
            text: text, shortText: shortText, tooltip: tooltip, foreground: foreground, background: background,
            state: state, classes: classes, dynamicDate: dynamicDate)
    }

    /// The file contents `format` gets for this entry, its dynamic date (if any) read at `now`.
    public func rendered(as format: OutputFormat, at now: Date = Date(), markup: Bool = false) -> String {
        Renderer.render(content.resolved(at: now), family: family, format: format, instance: instance, markup: markup)
    }

    /// The record as written to disk: JSON with sorted keys, so equal entries give equal bytes, and a final newline.
    ///
    /// Throws `EncodingError` only for a date that is not finite.
    public func encoded() throws -> [UInt8] {
        guard date.timeIntervalSince1970.isFinite, dynamicDate?.date.timeIntervalSince1970.isFinite ?? true else {
            return try encodedByJSONEncoder()  // throws the EncodingError callers expect
        }
        // The bytes JSONEncoder gives with [.sortedKeys, .withoutEscapingSlashes], written directly: the daemon
        // encodes one record per entry swap, and JSONEncoder's generic machinery was half of a swap's instructions.
        var out: [UInt8] = []
        out.reserveCapacity(192)
        var first = true
        func key(_ name: StaticString) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
        if let background { key("background"); Self.appendString(background.hex, to: &out) }
        key("classes")
        out.append(UInt8(ascii: "["))
        for (index, name) in classes.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            Self.appendString(name, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        key("date"); Self.appendNumber(date.timeIntervalSince1970, to: &out)
        if let dynamicDate {
            key("dynamicDate")
            out.append(contentsOf: Array(#"{"date":"#.utf8))
            Self.appendNumber(dynamicDate.date.timeIntervalSince1970, to: &out)
            out.append(contentsOf: Array(#","style":"#.utf8))
            Self.appendString(dynamicDate.style.rawValue, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        key("family"); Self.appendString(family.rawValue, to: &out)
        if let foreground { key("foreground"); Self.appendString(foreground.hex, to: &out) }
        key("instance"); Self.appendString(instance, to: &out)
        key("kind"); Self.appendString(kind, to: &out)
        if let shortText { key("shortText"); Self.appendString(shortText, to: &out) }
        key("state"); Self.appendString(state.rawValue, to: &out)
        key("text"); Self.appendString(text, to: &out)
        if let tooltip { key("tooltip"); Self.appendString(tooltip, to: &out) }
        out.append(contentsOf: [UInt8(ascii: "}"), UInt8(ascii: "\n")])
        return out
    }

    /// The record as JSONEncoder writes it; `encoded()` must give the same bytes.
    public func encodedByJSONEncoder() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(self)) + [UInt8(ascii: "\n")]
    }

    /// A JSON number as JSONEncoder writes a Double: its description, without a trailing ".0".
    private static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }

    /// A JSON string as JSONEncoder escapes it: quote, backslash and control characters; slashes left alone.
    private static func appendString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): out.append(contentsOf: [92, 92])
            case 0x08: out.append(contentsOf: [92, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [92, UInt8(ascii: "f")])
            case 0x0A: out.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private enum CodingKeys: String, CodingKey {
        case instance, kind, family, date, text, shortText, tooltip, foreground, background, state, classes
        case dynamicDate
    }

    /// The keys of `dynamicDate`, written here rather than by `DynamicDate`'s own `Codable` so that its date is
    /// seconds since 1970 like `date`, whatever strategy the coder has.
    private enum DynamicDateKeys: String, CodingKey {
        case date, style
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        instance = try container.decode(String.self, forKey: .instance)
        kind = try container.decode(String.self, forKey: .kind)
        family = try container.decode(Family.self, forKey: .family)
        date = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .date))
        text = try container.decode(String.self, forKey: .text)
        shortText = try container.decodeIfPresent(String.self, forKey: .shortText)
        tooltip = try container.decodeIfPresent(String.self, forKey: .tooltip)
        foreground = try container.decodeIfPresent(Color.self, forKey: .foreground)
        background = try container.decodeIfPresent(Color.self, forKey: .background)
        state = try container.decodeIfPresent(EntryState.self, forKey: .state) ?? .normal
        classes = try container.decodeIfPresent([String].self, forKey: .classes) ?? []
        if container.contains(.dynamicDate) {
            let nested = try container.nestedContainer(keyedBy: DynamicDateKeys.self, forKey: .dynamicDate)
            dynamicDate = DynamicDate(
                Date(timeIntervalSince1970: try nested.decode(Double.self, forKey: .date)),
                style: try nested.decode(DynamicDate.Style.self, forKey: .style))
        } else {
            dynamicDate = nil
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(instance, forKey: .instance)
        try container.encode(kind, forKey: .kind)
        try container.encode(family, forKey: .family)
        try container.encode(date.timeIntervalSince1970, forKey: .date)
        try container.encode(text, forKey: .text)
        try container.encodeIfPresent(shortText, forKey: .shortText)
        try container.encodeIfPresent(tooltip, forKey: .tooltip)
        try container.encodeIfPresent(foreground, forKey: .foreground)
        try container.encodeIfPresent(background, forKey: .background)
        try container.encode(state, forKey: .state)
        try container.encode(classes, forKey: .classes)
        if let dynamicDate {
            var nested = container.nestedContainer(keyedBy: DynamicDateKeys.self, forKey: .dynamicDate)
            try nested.encode(dynamicDate.date.timeIntervalSince1970, forKey: .date)
            try nested.encode(dynamicDate.style, forKey: .style)
        }
    }
}
