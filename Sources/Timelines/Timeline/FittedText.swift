import Text

/// An entry's text cut to a family's width budget: what `full_text` and `short_text` carry.
public struct FittedText: Sendable, Hashable {
    public var full: String
    public var short: String
    /// Parts of `full` to show dimmed, as UTF-8 offsets, in order; a cut run keeps the `…` that ends it.
    public var dimmed: [Range<Int>] = []
    /// `full` and `short` are pango markup (a block's `markup: pango`).
    public var isMarkup = false

    public init(full: String, short: String, dimmed: [Range<Int>] = [], isMarkup: Bool = false) {
        self.full = full
        self.short = short
        self.dimmed = dimmed
        self.isMarkup = isMarkup
    }

    /// The visible text of markup, for a format that cannot show markup.
    public func plain() -> FittedText {
        guard isMarkup else { return self }
        return FittedText(full: PangoMarkup.plainText(full), short: PangoMarkup.plainText(short), dimmed: dimmed)
    }

    /// `full` as runs of text, each dimmed or not.
    public var runs: [(text: Substring, dimmed: Bool)] {
        var runs: [(text: Substring, dimmed: Bool)] = []
        let bytes = full.utf8
        var position = 0
        func run(_ range: Range<Int>, dimmed: Bool) {
            guard !range.isEmpty else { return }
            let start = bytes.index(bytes.startIndex, offsetBy: range.lowerBound)
            let end = bytes.index(bytes.startIndex, offsetBy: range.upperBound)
            runs.append((full[start..<end], dimmed))
        }
        for range in dimmed {
            run(position..<range.lowerBound, dimmed: false)
            run(range, dimmed: true)
            position = range.upperBound
        }
        run(position..<bytes.count, dimmed: false)
        return runs
    }
}

extension EntryContent {
    /// The full and short text within `family`'s budgets, cut at grapheme boundaries with `…`.
    /// The short text is the entry's own short text when it has one, else the full text cut shorter.
    public func fitted(to family: Family) -> FittedText {
        FittedText(
            full: DisplayWidth.truncate(text, toWidth: family.fullWidth),
            short: DisplayWidth.truncate(shortText ?? text, toWidth: family.shortWidth))
    }
}
