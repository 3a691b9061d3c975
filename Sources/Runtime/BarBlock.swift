import Config
import Formats
import FoundationEssentials
import Text
import Timelines

/// One widget's block on `widgetd bar`'s status line: the i3bar format's block (full and short text, colour,
/// background, urgent, markup, name and instance, by the same renderer the `i3bar` files use) plus the layout
/// properties the bar's `bars:` entry gives the widget (min_width, align, separator, separator_block_width, border).
/// The daemon renders a `bars:` entry's line with it (`BarLine`), `widgetd bar --widgets` a line of records.
public enum BarBlock {
    /// The block for `record` at `now`, as one JSON object without a newline.
    public static func render(_ record: InstanceRecord, item: BarItem, at now: Date) -> String {
        render(record.content(at: now), family: record.family, instance: record.instance, item: item)
    }

    /// The block of `content` shown by widget `instance` in `family`, as one JSON object without a newline.
    ///
    /// The bar's layout for the widget overrides what the entry says (an `exec` script's `min_width`, say): where a
    /// widget sits is the bar's to decide, and no key is sent twice.
    public static func render(_ content: EntryContent, family: Family, instance: String, item: BarItem) -> String {
        var layout = BlockProperties(align: item.align, separator: item.separator)
        layout.separatorBlockWidth = item.separatorBlockWidth
        switch item.minWidth {
        case .pixels(let pixels)?: layout.minWidth = .pixels(pixels)
        case .text(let text)?: layout.minWidth = .text(text)
        case nil: break
        }
        var block = Renderer.render(
            content, family: family, format: .i3bar, instance: instance, backgroundsShow: true, layout: layout)
        // The renderer's object ends in "}\n"; the border, which no entry carries, goes before the brace.
        while block.hasSuffix("\n") { block.removeLast() }
        guard let border = item.border, block.hasSuffix("}") else { return block }
        block.removeLast()
        return block + #","border":"\#(border.hex)"}"#
    }

    /// The block shown for a widget that has no record yet (the daemon is not running, or has not written it): its
    /// name, so the bar says what is missing instead of leaving a gap, and clicks on it still have a target.
    public static func missing(_ item: BarItem) -> String {
        var output: [UInt8] = Array(#"{"full_text":"#.utf8) + jsonString("\(item.widget): no entry")
        output += Array(#","name":"#.utf8) + jsonString(Renderer.blockName)
        output += Array(#","instance":"#.utf8) + jsonString(item.widget)
        output += Array(#","markup":"none"}"#.utf8)
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` as a JSON string literal.
    private static func jsonString(_ text: String) -> [UInt8] {
        var output: [UInt8] = []
        Escaping.appendJSONString(text, to: &output)
        return output
    }
}
