import FoundationEssentials

/// The type of a widget-level key a kind declares beside the core's (`kind`, `family`, `intent`, …): the exec
/// kind's `command:`, `timeout:`, `interval:` and `signal:`. The config loader reads each as its type and reports
/// mistakes with `file:line:col`, as it does for intent parameters.
public enum WidgetKeyType: Sendable, Hashable {
    /// An argv list, `[program, arguments…]`; no shell unless the user writes `[sh, -c, …]`.
    case command
    /// A duration (`500ms`, `5s`, `2m`, `1h`, or plain seconds) within the range, or one of the words
    /// (`interval: persist`).
    case duration(ClosedRange<TimeInterval>, words: [String])
    /// An integer within the range.
    case int(ClosedRange<Int>)
    /// One of fixed words (`format: json`).
    case choice([String])

    /// The words `widgetd kinds` shows for the type.
    public var name: String {
        switch self {
        case .command: "command list"
        case .duration(let range, let words):
            (["duration \(WidgetKeyType.describe(range.lowerBound))…\(WidgetKeyType.describe(range.upperBound))"]
                + words).joined(separator: " | ")
        case .int(let range): "int \(range.lowerBound)...\(range.upperBound)"
        case .choice(let words): words.joined(separator: " | ")
        }
    }

    public static func describe(_ seconds: TimeInterval) -> String {
        seconds < 1 ? "\(Int((seconds * 1000).rounded()))ms" : "\(Int(seconds))s"
    }
}

/// A widget-level key a kind takes (`command:` for exec).
public struct WidgetKeySpec: Sendable, Hashable {
    public var name: String
    public var type: WidgetKeyType
    /// What to write when the key is missing; nil when it is optional.
    public var requiredHint: String?
    public var summary: String

    public init(_ name: String, type: WidgetKeyType, requiredHint: String? = nil, summary: String) {
        self.name = name
        self.type = type
        self.requiredHint = requiredHint
        self.summary = summary
    }
}

/// A checked value of a kind's widget-level key.
public enum WidgetKeyValue: Sendable, Hashable {
    case command([String])
    case duration(TimeInterval)
    /// One of a duration key's words (`persist`).
    case word(String)
    case int(Int)
}
