/// An entry's text cut to a family's width budget: what `full_text` and `short_text` carry.
public struct FittedText: Sendable, Hashable {
    public var full: String
    public var short: String
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
