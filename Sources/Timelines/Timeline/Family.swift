/// A widget family: the size class of a widget, which sets how much text fits.
///
/// WidgetKit's families describe pixel sizes; on a status bar they become width budgets in cells.
/// `fullWidth` bounds the full text, `shortWidth` the short text a bar shows when it runs out of room.
public enum Family: String, Sendable, Hashable, CaseIterable, Codable {
    case accessoryCircular
    case accessoryInline
    case accessoryRectangular
    case systemSmall
    case systemMedium
    case systemLarge
    case systemExtraLarge

    /// Cells the full text may take.
    public var fullWidth: Int {
        switch self {
        case .accessoryCircular: 6
        case .accessoryInline: 20
        case .accessoryRectangular: 32
        case .systemSmall: 24
        case .systemMedium: 48
        case .systemLarge: 80
        case .systemExtraLarge: 120
        }
    }

    /// Cells the short text may take (`short_text` in i3bar, the `alt` of waybar).
    public var shortWidth: Int {
        switch self {
        case .accessoryCircular: 3
        default: fullWidth / 2
        }
    }
}
