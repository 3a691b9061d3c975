import Timelines

/// A bar's layout over a block's own: `widgetd bar`'s per-item `align:` and `separator:`, applied as the block is
/// rendered.
extension BlockProperties {
    /// These properties with the layout keys that `layout` sets (`min_width`, `align`, `separator`,
    /// `separator_block_width`) taking the place of their own.
    func laidOut(by layout: BlockProperties) -> BlockProperties {
        var result = self
        if let minWidth = layout.minWidth { result.minWidth = minWidth }
        if let align = layout.align { result.align = align }
        if let separator = layout.separator { result.separator = separator }
        if let width = layout.separatorBlockWidth { result.separatorBlockWidth = width }
        return result
    }
}
