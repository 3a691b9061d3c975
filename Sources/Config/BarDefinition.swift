import Timelines
import YAML

/// A `bars:` entry of widgets.yaml: which widgets one `widgetd bar --bar NAME` shows, in order, and how each block is
/// laid out on an i3bar or swaybar.
///
/// The layout keys are i3bar block properties that belong to where a widget sits on a bar, not to what it shows, so
/// they live here rather than in the widget's entries: the same widget may be wide on one bar and narrow on another.
public struct BarDefinition: Sendable, Hashable {
    public var name: String
    public var items: [BarItem]
    /// Where the bar's name stands in the file.
    public var mark: YAMLMark

    public init(name: String, items: [BarItem], mark: YAMLMark = YAMLMark(line: 1, column: 1)) {
        self.name = name
        self.items = items
        self.mark = mark
    }
}

/// One widget on a bar, with the i3bar block properties the bar gives it (all optional; i3bar's defaults otherwise).
public struct BarItem: Sendable, Hashable {
    public var widget: String
    /// i3bar `min_width`: pixels, or a text whose width is the minimum.
    public var minWidth: MinimumWidth?
    /// i3bar `align` (`left`, `center`, `right`), used when `min_width` makes the block wider than its text.
    public var align: String?
    /// i3bar `separator`: false leaves out the line after the block.
    public var separator: Bool?
    /// i3bar `separator_block_width`: pixels of gap after the block.
    public var separatorBlockWidth: Int?
    /// i3bar `border`: a frame in this colour (i3 4.20, sway 1.5 on).
    public var border: Color?

    public init(
        widget: String, minWidth: MinimumWidth? = nil, align: String? = nil, separator: Bool? = nil,
        separatorBlockWidth: Int? = nil, border: Color? = nil
    ) {
        self.widget = widget
        self.minWidth = minWidth
        self.align = align
        self.separator = separator
        self.separatorBlockWidth = separatorBlockWidth
        self.border = border
    }

    /// i3bar's `min_width` takes either form.
    public enum MinimumWidth: Sendable, Hashable {
        case pixels(Int)
        case text(String)
    }

    public static let keys = ["min_width", "align", "separator", "separator_block_width", "border"]
    public static let alignments = ["left", "center", "right"]
}
