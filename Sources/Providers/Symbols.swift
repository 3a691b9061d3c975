import Kind

/// The glyphs that stand for the seeds' SF Symbols in a bar: the motivation's favourite star (`star.fill` / `star`)
/// and a to-do's marker (`largecircle.fill.circle` / `circle`).
///
/// A bar draws with the font it is configured with, and draws a box (i3bar, swaybar, waybar) or nothing (polybar) for
/// a character that font lacks. So the default, `text`, is made of characters DejaVu Sans and DejaVu Sans Mono have
/// (fonts-dejavu-core, the font every shipped bar config names); `emoji` and `nerd-font` are for users whose bar
/// font, or its fallback, has more.
public struct Symbols: Sendable, Hashable {
    /// A favourite motivation (`star.fill`).
    public var favorite: String
    /// A motivation that is not a favourite (`star`): shown too, so that a click on it changes what the bar shows.
    public var notFavorite: String
    /// A done to-do (`largecircle.fill.circle`).
    public var done: String
    /// An open to-do (`circle`).
    public var open: String

    /// ★ ☆ ◉ ○: in DejaVu Sans and DejaVu Sans Mono (fonts-dejavu-core).
    public static let text = Symbols(favorite: "★", notFavorite: "☆", done: "◉", open: "○")
    /// ⭐ 🔘 ⚪ from a colour emoji font (fonts-noto-color-emoji); emoji have no hollow star, so ☆ stays.
    public static let emoji = Symbols(favorite: "⭐", notFavorite: "☆", done: "🔘", open: "⚪")
    /// Font Awesome 4's star, star-o, dot-circle-o and circle-o, at the code points every Nerd Font and Debian's
    /// fonts-font-awesome put them.
    public static let nerdFont = Symbols(
        favorite: "\u{F005}", notFavorite: "\u{F006}", done: "\u{F192}", open: "\u{F10C}")

    /// The `symbols:` parameter's cases, in the order `widgetd kinds` lists them, with their glyphs.
    static let styles: [(name: String, symbols: Symbols)] = [
        ("text", .text), ("emoji", .emoji), ("nerd-font", .nerdFont),
    ]

    /// The parameter both store kinds take.
    static let parameter = ParameterSpec(
        "symbols", displayName: "Symbols",
        type: .enumeration([
            EnumCase("text", displayName: "Text (★ ☆ ◉ ○, DejaVu Sans)"),
            EnumCase("emoji", displayName: "Emoji (fonts-noto-color-emoji)"),
            EnumCase("nerd-font", displayName: "Nerd Font or Font Awesome 4 (fonts-font-awesome)"),
        ]),
        default: .enumCase("text"),
        summary: "The star's and to-do markers' glyphs: text (any font, DejaVu Sans), emoji or nerd-font.")

    /// The glyphs `configuration`'s `symbols:` asks for.
    static func chosen(in configuration: IntentValues) -> Symbols {
        let name = configuration.enumCase("symbols") ?? "text"
        return styles.first { $0.name == name }?.symbols ?? .text
    }
}
