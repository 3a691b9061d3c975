import Text
import Timelines

/// How the renderer treats block-like entries (i3blocks scripts): whole text, markup, and the i3bar properties.
extension Renderer {
    /// Whether `format` shows pango markup: waybar always, i3bar always (it is told `"markup":"pango"`), i3blocks'
    /// raw lines when its section says `markup=pango`.
    static func takesMarkup(_ format: OutputFormat, markup: Bool) -> Bool {
        switch format {
        case .waybar, .i3bar: true
        case .i3blocks: markup
        case .plain, .polybar, .tmux: false
        }
    }

    /// A block's full and short text: whole when it keeps its whole text (i3blocks shows a script's text as it is),
    /// else cut to the family's width by what shows, never inside a tag or an entity. The short text is only ever the
    /// provider's own.
    static func blockText(_ content: EntryContent, block: BlockProperties, family: Family) -> FittedText {
        let short = content.shortText ?? ""
        guard !block.keepsWholeText else {
            return FittedText(full: content.text, short: short, isMarkup: block.isMarkup)
        }
        let cut = { (text: String, width: Int) in
            block.isMarkup
                ? PangoMarkup.truncate(text, toWidth: width) : DisplayWidth.truncate(text, toWidth: width)
        }
        return FittedText(
            full: cut(content.text, family.fullWidth), short: short.isEmpty ? "" : cut(short, family.shortWidth),
            isMarkup: block.isMarkup)
    }

    /// `min_width`, `align`, `separator` and `separator_block_width`, as the i3bar protocol spells them.
    static func appendI3barProperties(_ block: BlockProperties, to output: inout [UInt8]) {
        switch block.minWidth {
        case .pixels(let pixels)?:
            output.append(contentsOf: #","min_width":\#(pixels)"#.utf8)
        case .text(let text)?:
            output.append(contentsOf: #","min_width":"#.utf8)
            Escaping.appendJSONString(text, to: &output)
        case nil: break
        }
        if let align = block.align {
            output.append(contentsOf: #","align":"#.utf8)
            Escaping.appendJSONString(align, to: &output)
        }
        if let separator = block.separator {
            output.append(contentsOf: #","separator":\#(separator)"#.utf8)
        }
        if let width = block.separatorBlockWidth {
            output.append(contentsOf: #","separator_block_width":\#(width)"#.utf8)
        }
    }
}
