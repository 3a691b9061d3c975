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

/// As records keep it: keys in sorted order, unset ones left out, so `JSONBytes` can write the same bytes.
extension BlockProperties: Codable {
    enum CodingKeys: String, CodingKey {
        case align, markup, minWidthPixels, minWidthText, separator, separatorBlockWidth, whole
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var minWidth: MinWidth?
        if let pixels = try container.decodeIfPresent(Int.self, forKey: .minWidthPixels) {
            minWidth = .pixels(pixels)
        } else if let text = try container.decodeIfPresent(String.self, forKey: .minWidthText) {
            minWidth = .text(text)
        }
        self.init(
            isMarkup: try container.decodeIfPresent(Bool.self, forKey: .markup) ?? false,
            keepsWholeText: try container.decodeIfPresent(Bool.self, forKey: .whole) ?? false, minWidth: minWidth,
            align: try container.decodeIfPresent(String.self, forKey: .align),
            separator: try container.decodeIfPresent(Bool.self, forKey: .separator),
            separatorBlockWidth: try container.decodeIfPresent(Int.self, forKey: .separatorBlockWidth))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(align, forKey: .align)
        if isMarkup { try container.encode(true, forKey: .markup) }
        if case .pixels(let pixels)? = minWidth { try container.encode(pixels, forKey: .minWidthPixels) }
        if case .text(let text)? = minWidth { try container.encode(text, forKey: .minWidthText) }
        try container.encodeIfPresent(separator, forKey: .separator)
        try container.encodeIfPresent(separatorBlockWidth, forKey: .separatorBlockWidth)
        if keepsWholeText { try container.encode(true, forKey: .whole) }
    }
}

extension BlockProperties {
    /// These properties with the layout keys that `layout` sets (`min_width`, `align`, `separator`,
    /// `separator_block_width`) taking the place of their own.
    public func laidOut(by layout: BlockProperties) -> BlockProperties {
        var result = self
        if let minWidth = layout.minWidth { result.minWidth = minWidth }
        if let align = layout.align { result.align = align }
        if let separator = layout.separator { result.separator = separator }
        if let width = layout.separatorBlockWidth { result.separatorBlockWidth = width }
        return result
    }
}
