import Formats
import FoundationEssentials
import Timelines

/// Reads what an exec command printed: i3blocks' lines, or a JSON timeline.
enum ExecOutput {
    /// i3blocks' exit code for "urgent".
    static let urgentExitStatus: Int32 = 33

    /// The timeline the output describes, read as `format` says (`ExecSettings.Format`).
    /// - Parameter defaultPolicy: when the output names none (i3blocks lines always; JSON may).
    static func timeline(
        from result: CommandResult, now: Date, defaultPolicy: ReloadPolicy,
        format: ExecSettings.Format = .detected
    ) throws -> Timeline {
        let text = TextSanitizer.repair(bytes: result.output)
        guard result.exitStatus == 0 || result.exitStatus == urgentExitStatus else {
            let reason = firstLine(result.errorOutput) ?? firstLine(text) ?? "no output"
            throw ExecError("exited with status \(result.exitStatus): \(reason)")
        }
        let trimmed = text.drop { $0.isWhitespace }
        if format != .raw, trimmed.hasPrefix("{"),
            format == .json || result.truncated || isTimelineObject(Array(trimmed.utf8))
        {
            var timeline = try jsonTimeline(Array(trimmed.utf8), now: now, defaultPolicy: defaultPolicy)
            if result.exitStatus == urgentExitStatus { timeline = timeline.markedUrgent() }
            return timeline
        }
        return Timeline(
            entries: [TimelineEntry(date: now, content: lines(text, urgent: result.exitStatus == urgentExitStatus))],
            policy: defaultPolicy)
    }

    /// Whether `bytes` are a JSON object that a timeline is read from: with `entries`, or an i3bar block's
    /// `full_text`. (Output cut at the cap is taken as JSON too, to say so rather than show it as text.)
    private static func isTimelineObject(_ bytes: [UInt8]) -> Bool {
        guard let object = (try? JSONValue.parse(bytes))?.object else { return false }
        return object["entries"] != nil || object["full_text"] != nil
    }

    /// i3blocks' format: full_text, short_text, color, background, one per line. A line may end in CR LF, which is
    /// one Character in Swift, so lines are split on either.
    static func lines(_ text: String, urgent: Bool) -> EntryContent {
        let lines = outputLines(text)
        func line(_ index: Int) -> String? {
            index < lines.count && !lines[index].isEmpty ? lines[index] : nil
        }
        return EntryContent(
            text: line(0) ?? "", shortText: line(1), foreground: line(2).flatMap(Color.init(hex:)),
            background: line(3).flatMap(Color.init(hex:)), state: urgent ? .urgent : .normal)
    }

    /// A script's output as i3blocks splits it: at LF or CR LF (one Character in Swift), a CR before LF dropped.
    static func outputLines(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map {
            String($0.hasSuffix("\r") ? $0.dropLast() : $0)
        }
    }

    /// `{"entries":[{"date":…,"text":…}],"policy":…}`, or one i3bar block `{"full_text":…}`.
    static func jsonTimeline(_ bytes: [UInt8], now: Date, defaultPolicy: ReloadPolicy) throws -> Timeline {
        let object: JSONValue
        do {
            object = try JSONValue.parse(bytes)
        } catch {
            throw ExecError("printed JSON that does not parse: \(error)")
        }
        guard let root = object.object else { throw ExecError("printed JSON that is not an object") }
        return try jsonTimeline(root, now: now, defaultPolicy: defaultPolicy)
    }

    /// The most entries one timeline may hold.
    static let maxEntries = 2000

    /// A parsed JSON timeline object (also a plugin's reply, docs/PLUGINS.md).
    static func jsonTimeline(_ root: [String: JSONValue], now: Date, defaultPolicy: ReloadPolicy) throws -> Timeline {
        if root["full_text"] != nil {
            return Timeline(entries: [try entry(root, now: now, textKey: "full_text")], policy: defaultPolicy)
        }
        guard let list = root["entries"]?.objects, !list.isEmpty else {
            throw ExecError("a JSON timeline needs \"entries\": [{\"date\": …, \"text\": …}, …]")
        }
        // Each entry is kept, written to the widget's record and swapped in by the loop: an answer's size is what the
        // daemon holds and writes, so it is bounded.
        guard list.count <= maxEntries else {
            throw ExecError(
                "a timeline of \(list.count) entries: at most \(maxEntries) in one answer (a day of minutes fits; "
                    + "ask again at the end with \"policy\": \"atEnd\")")
        }
        let entries = try list.map { try entry($0, now: now, textKey: "text") }
        return Timeline(entries: entries, policy: try policy(root["policy"], now: now) ?? defaultPolicy)
    }

    private static func entry(_ object: [String: JSONValue], now: Date, textKey: String) throws -> TimelineEntry {
        guard let text = object[textKey]?.string else { throw ExecError("an entry has no \"\(textKey)\" string") }
        let date = try object["date"].map { try self.date($0) } ?? now
        var content = EntryContent(
            text: text, shortText: (object["short_text"] ?? object["short"])?.string,
            tooltip: object["tooltip"]?.string,
            foreground: object["color"]?.string.flatMap(Color.init(hex:)),
            background: object["background"]?.string.flatMap(Color.init(hex:)))
        if object["urgent"]?.bool == true || object["state"]?.string == "urgent" { content.state = .urgent }
        if let classes = object["class"]?.strings { content.classes = classes }
        // A JSON number only: `true` is not 1 per cent.
        if let percentage = object["percentage"]?.number, percentage.isFinite {
            // Clamped before the conversion: `Int(1e300)` traps, and a script must never stop the daemon.
            content.percentage = Int(min(max(percentage, 0), 100).rounded())
        }
        content.block = blockProperties(object)
        if let relative = object["relative"] {
            content.dynamicDate = DynamicDate(try self.date(relative), style: .relative)
        } else if let timer = object["timer"] {
            content.dynamicDate = DynamicDate(try self.date(timer), style: .timer)
        }
        return TimelineEntry(date: date, content: content)
    }

    /// The i3bar layout keys a script's JSON may set itself (i3blocks' `format=json`); nil when it sets none.
    private static func blockProperties(_ object: [String: JSONValue]) -> BlockProperties? {
        var block = BlockProperties()
        block.isMarkup = object["markup"]?.string == "pango"
        if let pixels = object["min_width"]?.number {
            block.minWidth = .pixels(clampedPixels(pixels))
        } else if let text = object["min_width"]?.string {
            block.minWidth = .text(text)
        }
        if let align = object["align"]?.string, ["left", "center", "right"].contains(align) { block.align = align }
        if let separator = object["separator"]?.bool { block.separator = separator }
        if let width = object["separator_block_width"]?.number {
            block.separatorBlockWidth = clampedPixels(width)
        }
        return block == BlockProperties() ? nil : block
    }

    /// Clamped as a Double first: converting a huge number to Int traps, and a script must never stop the daemon.
    private static func clampedPixels(_ value: Double) -> Int {
        return value.isFinite ? Int(min(max(value, 0), 10_000)) : 0
    }

    private static func policy(_ value: JSONValue?, now: Date) throws -> ReloadPolicy? {
        switch value {
        case nil: return nil
        case .string("atEnd"): return .atEnd
        case .string("never"): return .never
        case .object(let object):
            guard let date = object["after"] else { break }
            return .after(try self.date(date))
        default: break
        }
        throw ExecError("\"policy\" must be \"atEnd\", \"never\" or {\"after\": DATE}")
    }

    /// ISO 8601 text, or seconds since 1970.
    /// Dates a script may give: 1970 to 9999. Far beyond that, whole-second arithmetic on them (a timer's text, a
    /// calendar date for `widgetd list`) would overflow, and a script's bad number must not stop the daemon.
    static let dateRange = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799)

    private static func date(_ value: JSONValue) throws -> Date {
        var parsed: Date?
        if let seconds = value.number, seconds.isFinite {
            parsed = Date(timeIntervalSince1970: seconds)
        } else if let text = value.string {
            parsed = ISO8601Text.parse(text, defaultTimeZone: .current)
        }
        guard let date = parsed else {
            // Epoch seconds written as a string ("1796215554") are the likely mistake: say they must be a number.
            let digits = value.string.map { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } }
            throw ExecError(
                "'\(value)' is not a date; write ISO 8601 (2026-11-29T19:30:00+01:00) or epoch seconds"
                    + (digits == true ? " as a JSON number, without quotes" : ""))
        }
        guard dateRange.contains(date) else { throw ExecError("'\(value)' is not a date between 1970 and 9999") }
        return date
    }

    private static func firstLine(_ text: String) -> String? {
        text.split { $0 == "\n" || $0 == "\r\n" }.first.map { String($0.prefix(200)) }
    }
}

/// A problem with a command's run or its output, as the widget's tooltip shows it.
struct ExecError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

extension Timeline {
    /// Every entry marked urgent (exit status 33).
    func markedUrgent() -> Timeline {
        Timeline(
            entries: entries.map { entry in
                var entry = entry
                entry.content.state = .urgent
                return entry
            }, policy: policy)
    }
}
