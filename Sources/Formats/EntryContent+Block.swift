import Timelines

/// Block properties ride on an entry as its presentation, which the engine carries without knowing them.
extension EntryContent {
    /// Block properties of a block-like provider (an i3blocks script's markup, `min_width`, …); nil for most.
    public var block: BlockProperties? {
        get { presentation?.value(as: BlockProperties.self) }
        set { presentation = newValue.map(EntryPresentation.init) }
    }
}

extension Timeline {
    /// The timeline with every stored entry shown whole, as a block (see `BlockProperties.keepsWholeText`): what a
    /// kind that reads a bar's block gives a widget whose config names no family. A sequence's computed entries are
    /// a clock's, which no such kind gives.
    public func showingWholeText() -> Timeline {
        guard entries.contains(where: { $0.content.block?.keepsWholeText != true }) else { return self }
        let whole = entries.map { entry in
            var entry = entry
            var block = entry.content.block ?? BlockProperties()
            block.keepsWholeText = true
            entry.content.block = block
            return entry
        }
        var timeline = Timeline(entries: whole, policy: policy)
        timeline.notes = notes
        return timeline
    }
}
