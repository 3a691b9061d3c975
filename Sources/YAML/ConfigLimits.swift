import Text

/// Bounds on what reading `widgets.yaml` may cost, so that a huge or hostile file fails fast with a clear error
/// instead of stalling `check`, start-up or a hot reload (docs/configuration.md, "Limits").
public enum ConfigLimits {
    /// Largest file read: 1 MiB. A config with a thousand widgets is about 100 kB.
    public static let maxFileBytes = 1 << 20
    /// Longest scalar (key or value): 64 KiB, room for an inline script in an exec command.
    public static let maxScalarBytes = 64 << 10
    /// Errors shown in full; the rest are counted ("and N more errors"), not made.
    public static let maxShownErrors = 100
    /// Errors counted before a check stops looking: a hostile file (a list of bad items aliased into many widgets)
    /// costs what about 100 kB of mistakes cost, however many more it holds.
    public static let maxCountedErrors = 10_000
    /// Longest piece of the user's text a message quotes (a key, a value), in display columns.
    public static let maxQuotedWidth = 60

    /// `text` for quoting in a message: cut to `maxQuotedWidth` columns with "…", so that a message about a 64 KiB
    /// key stays one line long.
    public static func quoted(_ text: String) -> String {
        guard text.utf8.count > maxQuotedWidth else { return text }
        var shown = ""
        var width = 0
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            guard width + characterWidth < maxQuotedWidth else { return shown + "…" }
            shown.append(character)
            width += characterWidth
        }
        return shown
    }

    /// "1.5 MiB (1572864 bytes)": a size a person reads at a glance, and the exact count.
    public static func describe(bytes: Int) -> String {
        let megabytes = Double(bytes) / Double(1 << 20)
        let rounded = (megabytes * 10).rounded() / 10
        return "\(rounded) MiB (\(bytes) bytes)"
    }
}
