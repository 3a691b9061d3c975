/// One of cron's five fields: which values it allows and how it is written.
public struct CronField: Sendable, Hashable {
    /// The five fields, in the order a cron line writes them.
    public enum Position: Int, Sendable, Hashable, CaseIterable {
        case minute, hour, dayOfMonth, month, dayOfWeek

        public var name: String {
            switch self {
            case .minute: "minute"
            case .hour: "hour"
            case .dayOfMonth: "day-of-month"
            case .month: "month"
            case .dayOfWeek: "day-of-week"
            }
        }

        /// Values a field may name; day-of-week allows 7 as a second Sunday, as Vixie cron does.
        var range: ClosedRange<Int> {
            switch self {
            case .minute: 0...59
            case .hour: 0...23
            case .dayOfMonth: 1...31
            case .month: 1...12
            case .dayOfWeek: 0...7
            }
        }

        var names: [String] {
            switch self {
            case .month: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
            case .dayOfWeek: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
            default: []
            }
        }

        /// The value a name stands for (`jan` is 1, `sun` is 0), case-insensitive.
        func value(ofName name: Substring) -> Int? {
            guard let index = names.firstIndex(of: name.lowercased()) else { return nil }
            return self == .month ? index + 1 : index
        }
    }

    public let position: Position
    /// Bit `n` set when value `n` matches; day-of-week's 7 is folded into 0.
    public let allowed: UInt64
    /// False when the field was written starting with `*`; Vixie's day rule depends on it.
    public let isRestricted: Bool

    public func contains(_ value: Int) -> Bool {
        value >= 0 && value < 64 && allowed & (1 << UInt64(value)) != 0
    }

    /// The allowed values in ascending order.
    public var values: [Int] {
        position.range.filter { contains($0) }
    }
}

/// Why a cron expression was refused: which field, where in the text, and what is wrong.
public struct CronError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field at fault, or nil when the expression as a whole is wrong (field count, unknown `@` macro).
    public var field: CronField.Position?
    /// 0-based offset in the expression's characters where the problem starts.
    public var offset: Int
    public var reason: String

    public var description: String {
        guard let field else { return reason }
        return "\(field.name) field: \(reason)"
    }
}

extension CronField {
    /// Parses one field: a comma list of `*`, `N`, `A-B`, each optionally with `/STEP`; names for months
    /// and weekdays. `offset` is where the field starts in the whole expression, for error positions.
    init(parsing text: Substring, as position: Position, offset: Int) throws(CronError) {
        var allowed: UInt64 = 0
        var itemOffset = offset
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            allowed |= try Self.parseItem(item, position: position, offset: itemOffset)
            itemOffset += item.count + 1
        }
        if position == .dayOfWeek, allowed & (1 << 7) != 0 {
            allowed = (allowed & ~(1 << 7)) | 1
        }
        self.position = position
        self.allowed = allowed
        self.isRestricted = !text.hasPrefix("*")
    }

    private static func parseItem(_ item: Substring, position: Position, offset: Int) throws(CronError) -> UInt64 {
        func fail(_ reason: String, at index: Int = 0) -> CronError {
            CronError(field: position, offset: offset + index, reason: reason)
        }
        guard !item.isEmpty else { throw fail("empty list item") }
        let parts = item.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let rangeText = parts[0]
        var step = 1
        if parts.count == 2 {
            let stepOffset = rangeText.count + 1
            guard let value = Int(parts[1]), parts[1].allSatisfy(\.isASCII) else {
                throw fail("step '\(parts[1])' is not a number", at: stepOffset)
            }
            guard value >= 1, value <= position.range.upperBound else {
                throw fail("step \(value) must be 1 to \(position.range.upperBound)", at: stepOffset)
            }
            step = value
        }
        let bounds: ClosedRange<Int>
        if rangeText == "*" {
            bounds = position.range
        } else {
            let ends = rangeText.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            let low = try value(ends[0], position: position, offset: offset)
            if ends.count == 2 {
                let high = try value(ends[1], position: position, offset: offset + ends[0].count + 1)
                guard low <= high else {
                    throw fail("range \(rangeText) runs backwards (\(low) > \(high))")
                }
                bounds = low...high
            } else {
                // Vixie: `N/STEP` means from N to the field's end in steps.
                bounds = parts.count == 2 ? low...position.range.upperBound : low...low
            }
        }
        var bits: UInt64 = 0
        for value in stride(from: bounds.lowerBound, through: bounds.upperBound, by: step) {
            bits |= 1 << UInt64(value)
        }
        return bits
    }

    private static func value(_ text: Substring, position: Position, offset: Int) throws(CronError) -> Int {
        let range = position.range
        if let number = Int(text), text.allSatisfy(\.isASCII) {
            guard range.contains(number) else {
                throw CronError(
                    field: position, offset: offset,
                    reason: "\(number) is out of range \(range.lowerBound)-\(range.upperBound)")
            }
            return number
        }
        if let named = position.value(ofName: text) { return named }
        let expected =
            position.names.isEmpty
            ? "a number \(range.lowerBound)-\(range.upperBound)"
            : "a number \(range.lowerBound)-\(range.upperBound) or a name (\(position.names.joined(separator: ", ")))"
        throw CronError(
            field: position, offset: offset, reason: "'\(text.isEmpty ? "" : text)' is not \(expected)")
    }
}
