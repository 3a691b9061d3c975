/// Trimming as Foundation's `trimmingCharacters(in:)` does it, by Unicode scalar, without Foundation.
extension StringProtocol {
    /// Without leading and trailing white space and line breaks (`CharacterSet.whitespacesAndNewlines`: the Unicode
    /// `White_Space` property, and the zero-width space as Foundation counts it).
    public func trimmingWhitespace() -> String {
        trimming { $0.properties.isWhitespace || $0 == "\u{200B}" }
    }

    /// Without leading and trailing spaces and tabs, line breaks kept (`CharacterSet.whitespaces`: category Zs, tab
    /// and the zero-width space).
    public func trimmingSpaces() -> String {
        trimming { $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// Without leading and trailing line breaks (`CharacterSet.newlines`: U+000A–U+000D, U+0085, U+2028, U+2029).
    public func trimmingNewlines() -> String {
        trimming { ("\u{0A}"..."\u{0D}").contains($0) || $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" }
    }

    /// Without leading and trailing scalars found in `scalars` (`CharacterSet(charactersIn:)`).
    public func trimming(anyOf scalars: String) -> String {
        let set = Set(scalars.unicodeScalars)
        return trimming { set.contains($0) }
    }

    /// Without the leading and trailing Unicode scalars `isTrimmed` picks.
    public func trimming(_ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
