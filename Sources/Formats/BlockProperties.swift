/// How a block-like provider (an i3blocks script) wants its entry laid out: i3bar block properties beyond text and
/// colour, and whether the text is pango markup.
public struct BlockProperties: Sendable, Hashable {
    /// The text and short text are pango markup, already checked well-formed: passed through to the formats that
    /// take markup (i3bar with `"markup":"pango"`, waybar) and reduced to their visible text for the others.
    public var isMarkup: Bool
    /// Shown whole, as i3blocks shows a script's text: not cut to the family's width, and no short text made up.
    public var keepsWholeText: Bool
    /// i3bar's `min_width`: a number of pixels, or a text whose width the block takes at least.
    public var minWidth: MinWidth?
    /// i3bar's `align`: left, center or right, within `min_width`.
    public var align: String?
    /// i3bar's `separator`: false leaves out the line after the block.
    public var separator: Bool?
    /// i3bar's `separator_block_width`, in pixels.
    public var separatorBlockWidth: Int?

    public enum MinWidth: Sendable, Hashable {
        case pixels(Int)
        case text(String)
    }

    public init(
        isMarkup: Bool = false, keepsWholeText: Bool = false, minWidth: MinWidth? = nil, align: String? = nil,
        separator: Bool? = nil, separatorBlockWidth: Int? = nil
    ) {
        self.isMarkup = isMarkup
        self.keepsWholeText = keepsWholeText
        self.minWidth = minWidth
        self.align = align
        self.separator = separator
        self.separatorBlockWidth = separatorBlockWidth
    }
}
