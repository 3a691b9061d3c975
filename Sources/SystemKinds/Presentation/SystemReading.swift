import Timelines

/// One sample of a system kind, ready to show: the placeholder values, the value its thresholds watch and the
/// fraction its gauge shows.
public struct SystemReading: Sendable, Hashable {
    /// Placeholder name → its text (`usage` → `42%`).
    public var values: [String: String]
    /// What `warning:` and `critical:` are compared with (CPU usage, degrees); nil: nothing to compare.
    public var level: Double?
    /// 0–1 for the gauge glyph and waybar's `percentage`; nil: no gauge (uptime has no range).
    public var fraction: Double?
    /// Every value in one line, for the tooltip.
    public var tooltip: String

    public init(values: [String: String], level: Double?, fraction: Double?, tooltip: String) {
        self.values = values
        self.level = level
        self.fraction = fraction
        self.tooltip = tooltip
    }

    /// The families that show the gauge glyph in front of the text: the small ones, where WidgetKit would draw a
    /// `Gauge` beside a number.
    public static let gaugeFamilies: Set<Family> = [.accessoryCircular, .systemSmall]

    /// The entry for `family`: the format's text (behind the gauge glyph in the small families), the colour and
    /// urgency its thresholds give, the fraction as waybar's `percentage`, and `warning`/`critical` as waybar classes.
    public func content(format: PlaceholderFormat, thresholds: Thresholds, family: Family) -> EntryContent {
        var text = format.render(values)
        var shortText: String?
        if let fraction, Self.gaugeFamilies.contains(family) {
            let glyph = String(GaugeGlyph.glyph(for: fraction))
            text = glyph + " " + text
            shortText = glyph
        }
        let level = level.map(thresholds.level(of:)) ?? .normal
        return EntryContent(
            text: text, shortText: shortText, tooltip: tooltip,
            foreground: level == .critical
                ? Thresholds.criticalColor : level == .warning ? Thresholds.warningColor : nil,
            state: level == .critical ? .urgent : .normal, classes: level == .normal ? [] : [level.rawValue],
            percentage: fraction.map { Int(($0 * 100).rounded()) })
    }
}
