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

    /// One entry now, and the next sample an interval later.
    static func timeline(_ content: EntryContent, in context: ProviderContext, interval: TimeInterval) -> Timeline {
        let interval = context.settings.duration("interval") ?? interval
        return Timeline(
            entries: [TimelineEntry(date: context.now, content: content)],
            policy: .after(context.now.addingTimeInterval(interval)))
    }
}
