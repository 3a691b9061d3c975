/// A scalar exactly as written, without any type guessing.
///
/// `yes`, `1` and `true` all stay text: a YAML 1.1 loader would silently turn `country: NO` into `false`, so callers
/// decide what a scalar means from their own schema. The only interpretation done here is `isNull`, because absent
/// and null values are indistinguishable to every schema we have.
public struct YAMLScalar: Sendable, Hashable {
    /// How the scalar was written in the source.
    public enum Style: Sendable, Hashable {
        /// Unquoted, possibly spanning several lines (which are folded into one).
        case plain
        /// `'text'`.
        case singleQuoted
        /// `"text"`, with backslash escapes already decoded.
        case doubleQuoted
        /// A `|` block scalar; line breaks kept.
        case literal
        /// A `>` block scalar; line breaks folded into spaces.
        case folded
    }

    /// The scalar's content after YAML's folding and escape processing.
    public var text: String
    /// How the scalar was written.
    public var style: Style
    /// Plain `~`, `null`, `Null`, `NULL` or empty plain scalar: YAML's null. Quoted scalars are never null.
    public var isNull: Bool

    /// Creates a scalar, deciding `isNull` from the text and style as the loader does for untagged scalars.
    public init(text: String, style: Style = .plain) {
        self.init(text: text, style: style, isNull: YAMLScalar.isNullSpelling(text, style: style))
    }

    /// Creates a scalar with an explicit null flag, for scalars whose tag overrides the spelling (e.g. `!!str ~`).
    public init(text: String, style: Style, isNull: Bool) {
        self.text = text
        self.style = style
        self.isNull = isNull
    }

    /// Whether `text` written in `style` spells null under the YAML core schema.
    public static func isNullSpelling(_ text: String, style: Style) -> Bool {
        guard style == .plain else { return false }
        switch text {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }
}
