import Formats
import Kind

/// Values that many widgets of a configuration hold alike, kept once so that equal ones share their storage (Swift's
/// dictionaries and arrays are copy-on-write): each kind's default intent, every distinct `intent:` and `output:`.
///
/// 10,000 widgets of a few kinds then hold a few intent dictionaries instead of 10,000 of 128 bytes or more, and the
/// validator builds each kind's defaults once instead of once per widget.
struct SharedValues {
    private var defaults: [String: IntentValues] = [:]
    private var intents: Set<IntentValues> = []
    private var outputs: Set<[OutputFormat]> = []

    /// Every parameter of `kind` at its default (`WidgetKind.defaultConfiguration`), built once per kind.
    mutating func defaultConfiguration(of kind: any WidgetKind) -> IntentValues {
        if let known = defaults[kind.name] { return known }
        let made = intent(kind.defaultConfiguration)
        defaults[kind.name] = made
        return made
    }

    /// `values`, or an equal value met before, whose storage it then shares.
    mutating func intent(_ values: IntentValues) -> IntentValues {
        intents.insert(values).memberAfterInsert
    }

    /// `formats`, or an equal list met before, whose storage it then shares.
    mutating func outputs(_ formats: [OutputFormat]) -> [OutputFormat] {
        outputs.insert(formats).memberAfterInsert
    }
}
