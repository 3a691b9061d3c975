import Foundation

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

    static func describe(_ seconds: TimeInterval) -> String {
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

/// The values of the kind's own widget-level keys for one instance; keys the config leaves out are absent.
public struct WidgetSettings: Sendable, Hashable {
    public var values: [String: WidgetKeyValue]

    public init(_ values: [String: WidgetKeyValue] = [:]) {
        self.values = values
    }

    public subscript(name: String) -> WidgetKeyValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    public func command(_ name: String) -> [String]? {
        if case .command(let argv)? = values[name] { return argv }
        return nil
    }

    public func duration(_ name: String) -> TimeInterval? {
        if case .duration(let seconds)? = values[name] { return seconds }
        return nil
    }

    public func word(_ name: String) -> String? {
        if case .word(let word)? = values[name] { return word }
        return nil
    }

    public func int(_ name: String) -> Int? {
        if case .int(let value)? = values[name] { return value }
        return nil
    }
}

/// How the daemon runs a kind's provider for one instance; the kind decides from the instance's settings, so the
/// engine and the daemon know nothing of any one kind.
public struct RunMode: Sendable, Hashable {
    /// Calls block their thread for as long as a program runs: they get threads of their own, so a few hanging
    /// scripts hold up nothing else.
    public var blocksThread: Bool
    /// How long one call may take, when the kind asks for longer than the daemon's default; its own limit should
    /// come first, so the engine allows a second more.
    public var timeout: TimeInterval?
    /// The provider keeps running and pushes updates through a session (`ProviderSession`) instead of answering
    /// timeline calls; a reload starts it when it is not running.
    public var isPersistent: Bool
    /// A real-time signal (`SIGRTMIN+N`, 1–30) that reloads the instance, as i3blocks' `signal=`.
    public var signal: Int?

    public init(
        blocksThread: Bool = false, timeout: TimeInterval? = nil, isPersistent: Bool = false, signal: Int? = nil
    ) {
        self.blocksThread = blocksThread
        self.timeout = timeout
        self.isPersistent = isPersistent
        self.signal = signal
    }

    /// A kind that answers in-process, on the shared provider threads.
    public static let inProcess = RunMode()
}
