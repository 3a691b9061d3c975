import Timelines

/// An entry's block properties as records keep them: keys in sorted order, unset ones left out, so that `JSONBytes`
/// writes the same bytes (`InstanceRecord.encoded()`). The record's form is the formats' business, not the engine's,
/// which only carries the properties.
struct StoredBlock: Codable {
    var block: BlockProperties

    init(_ block: BlockProperties) {
        self.block = block
    }

    enum CodingKeys: String, CodingKey {
        case align, markup, minWidthPixels, minWidthText, separator, separatorBlockWidth, whole
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var minWidth: BlockProperties.MinWidth?
        if let pixels = try container.decodeIfPresent(Int.self, forKey: .minWidthPixels) {
            minWidth = .pixels(pixels)
        } else if let text = try container.decodeIfPresent(String.self, forKey: .minWidthText) {
            minWidth = .text(text)
        }
        block = BlockProperties(
            isMarkup: try container.decodeIfPresent(Bool.self, forKey: .markup) ?? false,
            keepsWholeText: try container.decodeIfPresent(Bool.self, forKey: .whole) ?? false, minWidth: minWidth,
            align: try container.decodeIfPresent(String.self, forKey: .align),
            separator: try container.decodeIfPresent(Bool.self, forKey: .separator),
            separatorBlockWidth: try container.decodeIfPresent(Int.self, forKey: .separatorBlockWidth))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(block.align, forKey: .align)
        if block.isMarkup { try container.encode(true, forKey: .markup) }
        if case .pixels(let pixels)? = block.minWidth { try container.encode(pixels, forKey: .minWidthPixels) }
        if case .text(let text)? = block.minWidth { try container.encode(text, forKey: .minWidthText) }
        try container.encodeIfPresent(block.separator, forKey: .separator)
        try container.encodeIfPresent(block.separatorBlockWidth, forKey: .separatorBlockWidth)
        if block.keepsWholeText { try container.encode(true, forKey: .whole) }
    }
}
