import Text

/// A five-field cron schedule (minute hour day-of-month month day-of-week), Vixie cron's dialect.
public struct CronExpression: Sendable, Hashable, CustomStringConvertible {
    public let minutes: CronField
    public let hours: CronField
    public let daysOfMonth: CronField
    public let months: CronField
    public let daysOfWeek: CronField
    /// The text as written, for messages and `widgetd list`.
    public let source: String

    /// The `@` shorthands and the fields they stand for.
    public static let macros: [String: String] = [
        "@yearly": "0 0 1 1 *",
        "@annually": "0 0 1 1 *",
        "@monthly": "0 0 1 * *",
        "@weekly": "0 0 * * 0",
        "@daily": "0 0 * * *",
        "@midnight": "0 0 * * *",
        "@hourly": "0 * * * *",
    ]

    public init(parsing text: String) throws(CronError) {
        source = text
        let trimmed = text.drop(while: Self.isBlank)
        let leading = text.count - trimmed.count
        var expanded = Substring(text)
        var macroOffset: Int?
        if trimmed.hasPrefix("@") {
            let word = trimmed.prefix { !Self.isBlank($0) }
            guard let fields = Self.macros[word.lowercased()] else {
                let known = Self.macros.keys.sorted().joined(separator: " ")
                throw CronError(
                    field: nil, offset: leading,
                    reason: "unknown shorthand '\(word)'"
                        + Suggestion.didYouMean(String(word), in: Array(Self.macros.keys), then: "known: \(known)")
                )
            }
            guard trimmed.dropFirst(word.count).allSatisfy(Self.isBlank) else {
                throw CronError(field: nil, offset: leading + word.count, reason: "unexpected text after '\(word)'")
            }
            expanded = Substring(fields)
            macroOffset = leading
        }
        // Split on blanks, remembering where each field starts so errors point into the original text.
        var fields: [(text: Substring, offset: Int)] = []
        var index = expanded.startIndex
        var position = 0
        while index < expanded.endIndex {
            if Self.isBlank(expanded[index]) {
                index = expanded.index(after: index)
                position += 1
                continue
            }
            let start = index
            let startPosition = position
            while index < expanded.endIndex, !Self.isBlank(expanded[index]) {
                index = expanded.index(after: index)
                position += 1
            }
            fields.append((expanded[start..<index], macroOffset ?? startPosition))
        }
        guard fields.count == 5 else {
            let offset = fields.count > 5 ? fields[5].offset : max(0, text.count)
            throw CronError(
                field: nil, offset: offset,
                reason: "expected 5 fields (minute hour day-of-month month day-of-week), found \(fields.count)")
        }
        minutes = try CronField(parsing: fields[0].text, as: .minute, offset: fields[0].offset)
        hours = try CronField(parsing: fields[1].text, as: .hour, offset: fields[1].offset)
        daysOfMonth = try CronField(parsing: fields[2].text, as: .dayOfMonth, offset: fields[2].offset)
        months = try CronField(parsing: fields[3].text, as: .month, offset: fields[3].offset)
        daysOfWeek = try CronField(parsing: fields[4].text, as: .dayOfWeek, offset: fields[4].offset)
    }

    public var description: String { source }

    /// Fields are separated by spaces and tabs, and line breaks count too: a YAML block scalar (`schedule: |`) ends
    /// in one, and a folded one may hold one.
    private static func isBlank(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\n" || character == "\r" || character == "\r\n"
    }

    /// Vixie's day rule: when both day fields are restricted, a day matches if either matches; otherwise both
    /// must (an unrestricted field matches every day anyway).
    public func matchesDay(dayOfMonth: Int, weekday: Int) -> Bool {
        let byMonthDay = daysOfMonth.contains(dayOfMonth)
        let byWeekday = daysOfWeek.contains(weekday % 7)
        if daysOfMonth.isRestricted && daysOfWeek.isRestricted {
            return byMonthDay || byWeekday
        }
        return byMonthDay && byWeekday
    }
}
