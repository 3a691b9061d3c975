import Foundation
import Scheduler

/// One widget's block on `widgetd bar`'s status line: the i3bar format's block (full and short text, colour,
/// background, urgent, markup, name and instance, by the same renderer the `i3bar` files use) plus the layout
/// properties the bar's `bars:` entry gives the widget (min_width, align, separator, separator_block_width, border).
enum BarBlock {
    /// The block for `record` at `now`, as one JSON object without a newline.
    static func render(_ record: InstanceRecord, item: BarItem, at now: Date) -> String {
        var block = record.rendered(as: .i3bar, at: now, backgroundsShow: true)
        // The renderer's object ends in "}\n"; the layout keys go before the brace.
        while block.hasSuffix("\n") { block.removeLast() }
        guard block.hasSuffix("}") else { return block }
        block.removeLast()
        var extra: [UInt8] = []
        switch item.minWidth {
        case .pixels(let pixels)?:
            extra += Array(#","min_width":\#(pixels)"#.utf8)
        case .text(let text)?:
            extra += Array(#","min_width":"#.utf8) + jsonString(text)
        case nil:
            break
        }
        if let align = item.align { extra += Array(#","align":"\#(align)""#.utf8) }
        if let separator = item.separator { extra += Array(#","separator":\#(separator)"#.utf8) }
        if let width = item.separatorBlockWidth { extra += Array(#","separator_block_width":\#(width)"#.utf8) }
        if let border = item.border { extra += Array(#","border":"\#(border.hex)""#.utf8) }
        return block + String(decoding: extra, as: UTF8.self) + "}"
    }

    /// The block shown for a widget that has no record yet (the daemon is not running, or has not written it): its
    /// name, so the bar says what is missing instead of leaving a gap, and clicks on it still have a target.
    static func missing(_ item: BarItem) -> String {
        var output: [UInt8] = Array(#"{"full_text":"#.utf8) + jsonString("\(item.widget): no entry")
        output += Array(#","name":"#.utf8) + jsonString(Renderer.blockName)
        output += Array(#","instance":"#.utf8) + jsonString(item.widget)
        output += Array(#","markup":"none"}"#.utf8)
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` as a JSON string literal.
    private static func jsonString(_ text: String) -> [UInt8] {
        (try? JSONEncoder().encode(text)).map(Array.init) ?? Array(#""""#.utf8)
    }
}
