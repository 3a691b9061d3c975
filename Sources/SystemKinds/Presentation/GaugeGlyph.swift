/// A fraction as one of the eight block elements ▁▂▃▄▅▆▇█, the shape WidgetKit's `Gauge` takes in a line of text.
public enum GaugeGlyph {
    static let glyphs: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// 0 (or less) is ▁, 1 (or more) is █, and the six between split the rest evenly.
    public static func glyph(for fraction: Double) -> Character {
        let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        return glyphs[Int((clamped * Double(glyphs.count - 1)).rounded())]
    }
}
