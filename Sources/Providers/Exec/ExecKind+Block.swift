import Formats
import FoundationEssentials
import Kind
import Text
import Timelines

/// i3blocks' block properties, written as `intent:` values under the names an i3blocks section gives them.
extension ExecKind {
    static let blockParameters: [ParameterSpec] = [
        ParameterSpec(
            "label", displayName: "Label", type: .string,
            summary: "put before full_text with a space, as i3blocks 1.4 shows it"),
        ParameterSpec("color", displayName: "Colour", type: .color, summary: "when the script prints none"),
        ParameterSpec("background", displayName: "Background", type: .color, summary: "when the script prints none"),
        ParameterSpec(
            "markup", displayName: "Markup",
            type: .enumeration([EnumCase("none", displayName: "Plain text"), EnumCase("pango", displayName: "Pango")]),
            summary: "pango: the script's markup reaches i3bar and waybar, other bars get its text"),
        ParameterSpec(
            "short_text", displayName: "Short text", type: .string, summary: "when the script prints none"),
        ParameterSpec(
            "min_width", displayName: "Minimum width", type: .string,
            summary: "i3bar min_width: pixels, or a text as wide as the block must be"),
        ParameterSpec(
            "align", displayName: "Side",
            type: .enumeration([
                EnumCase("left", displayName: "Left"), EnumCase("center", displayName: "Centre"),
                EnumCase("right", displayName: "Right"),
            ]), summary: "i3bar align, within min_width"),
        ParameterSpec("separator", displayName: "Separator", type: .bool, summary: "i3bar separator"),
        ParameterSpec(
            "separator_block_width", displayName: "Separator width", type: .int(0...10_000),
            summary: "i3bar separator_block_width, in pixels"),
        ParameterSpec(
            "instance", displayName: "Instance", type: .string, summary: "BLOCK_INSTANCE, as i3blocks' instance="),
        ParameterSpec(
            "name", displayName: "Name", type: .string,
            summary: "BLOCK_NAME, as i3blocks' [section] name; the widget's name when not set"),
    ]

    /// Markup that is not well-formed pango is shown as it stands, escaped, and noted: a half-open tag must not take
    /// the rest of the bar with it. For an exec script's text and a plugin's alike.
    static func checkMarkup(of content: EntryContent, in block: inout BlockProperties, notes: inout [String]) {
        guard block.isMarkup else { return }
        let texts = [content.text] + (content.shortText.map { [$0] } ?? [])
        if let bad = texts.first(where: { !PangoMarkup.isWellFormed($0) }) {
            block.isMarkup = false
            notes.append("markup is not well-formed pango, shown as text: \(bad.prefix(80))")
        }
    }

    /// The section's properties applied to what the script printed, as i3blocks applies a block's: the label goes
    /// before the full text, colours and short text fill in what the script left out, and the i3bar layout comes
    /// from the config unless the script's JSON set it.
    static func styled(
        _ timeline: Timeline, configuration: IntentValues
    ) -> Timeline {
        var notes = timeline.notes
        let entries = timeline.entries.map { entry in
            var entry = entry
            entry.content = styled(entry.content, configuration: configuration, notes: &notes)
            return entry
        }
        var result = Timeline(entries: entries, policy: timeline.policy)
        result.notes = notes
        return result
    }

    static func styled(
        _ content: EntryContent, configuration: IntentValues, notes: inout [String]
    ) -> EntryContent {
        var content = content
        // As i3blocks 1.4 shows it (block.c: "%s %s"): the label, a space, the text; nothing when the text is empty.
        // (1.5 joins them with no space; 1.4 is what Debian and Ubuntu ship.) An empty `label=` is no label, as there.
        if let label = configuration.string("label"), !label.isEmpty, !content.text.isEmpty {
            content.text = label + " " + content.text
        }
        if content.foreground == nil { content.foreground = configuration.color("color") }
        if content.background == nil { content.background = configuration.color("background") }
        if content.shortText == nil, let short = configuration.string("short_text"), !short.isEmpty {
            content.shortText = short
        }
        var block = content.block ?? BlockProperties()
        if configuration.enumCase("markup") == "pango" { block.isMarkup = true }
        Self.checkMarkup(of: content, in: &block, notes: &notes)
        if block.minWidth == nil, let width = configuration.string("min_width") {
            block.minWidth = Int(width).map { .pixels($0) } ?? .text(width)
        }
        if block.align == nil { block.align = configuration.enumCase("align") }
        if block.separator == nil { block.separator = configuration.bool("separator") }
        if block.separatorBlockWidth == nil { block.separatorBlockWidth = configuration.int("separator_block_width") }
        content.block = block
        return content
    }

    /// A property's value as the script's environment gets it (i3blocks exports every property as text).
    static func environmentText(_ value: ParameterValue) -> String? {
        switch value {
        case .string(let text): text
        case .bool(let value): String(value)
        case .int(let value): String(value)
        case .enumCase(let name): name
        case .color(let color): color.hex
        case .duration(let seconds): String(seconds)
        case .entity: nil
        }
    }
}
