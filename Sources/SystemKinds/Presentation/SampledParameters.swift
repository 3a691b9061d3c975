import FoundationEssentials
import Kind
import Timelines

/// What the sampled kinds have in common: `format:`, `warning:`, `critical:`, the widget key `interval:` and the
/// timeline of one entry that asks again an interval later.
enum SampledParameters {
    static let families: [Family] = [
        .accessoryInline, .accessoryCircular, .accessoryRectangular, .systemSmall, .systemMedium, .systemLarge,
    ]

    static func format(default text: String, placeholders: String) -> ParameterSpec {
        ParameterSpec(
            "format", displayName: "Format", type: .string, default: .string(text),
            summary: "the text, with placeholders " + placeholders)
    }

    static func threshold(_ name: String, default value: Int?, range: ClosedRange<Int>, of what: String)
        -> ParameterSpec
    {
        ParameterSpec(
            name, displayName: name == "warning" ? "Warning" : "Critical", type: .int(range),
            default: value.map { .int($0) },
            summary: name == "warning"
                ? "from this \(what) on, the text is yellow (waybar class warning)"
                : "from this \(what) on, the text is red and urgent (waybar class critical)")
    }

    static func intervalKey(default seconds: TimeInterval) -> WidgetKeySpec {
        WidgetKeySpec(
            "interval", type: .duration(1...86_400, words: []),
            summary: "sample this often (default \(WidgetKeyType.describe(seconds)))")
    }

    static func thresholds(_ configuration: IntentValues) -> Thresholds {
        Thresholds(
            warning: configuration.int("warning").map(Double.init),
            critical: configuration.int("critical").map(Double.init))
    }

    /// The placeholders of `format` that `known` does not accept, for `check` to warn about: they would show as
    /// typed.
    static func unknownPlaceholders(
        in configuration: IntentValues, known: (String) -> Bool, list: String
    ) -> [ReferenceProblem] {
        let unknown = PlaceholderFormat(configuration.string("format") ?? "").placeholders.filter { !known($0) }
        return unknown.map {
            ReferenceProblem(
                parameter: "format",
                message: "unknown placeholder '{\($0)}' in 'format', which shows as typed; known: \(list)")
        }
    }

    /// One entry now, and the next sample at the interval's next boundary on the wall clock.
    static func timeline(_ content: EntryContent, in context: ProviderContext, interval: TimeInterval) -> Timeline {
        let interval = context.settings.duration("interval") ?? interval
        return Timeline(
            entries: [TimelineEntry(date: context.now, content: content)],
            policy: .after(nextBoundary(after: context.now, every: interval)))
    }

    /// The first multiple of `interval` since the epoch after `now`, as i3status times its interval: every widget
    /// sampled at the same interval, started whenever, is read at the same instant, so a bar of them costs the daemon
    /// one wake-up and one line per interval instead of one each. A first sample (at start, or on a click) is taken at
    /// once; only the next waits for the boundary, so the first interval is shorter, never longer.
    static func nextBoundary(after now: Date, every interval: TimeInterval) -> Date {
        let seconds = now.timeIntervalSince1970
        // Past `now` by more than a rounding error, so a sample taken at its boundary asks for the next one.
        let boundary = ((seconds + 0.001) / interval).rounded(.down) * interval + interval
        return Date(timeIntervalSince1970: boundary)
    }
}
