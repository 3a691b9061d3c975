import Kind

/// The keys widgets.yaml accepts, as the validator checks them: the man page widgets.yaml(5) lists these same tables,
/// so it cannot document a key the validator refuses, nor miss one it takes.
public enum ConfigSchema {
    /// The core's top-level keys, then the sections `registry`'s kinds read (`KindRegistry.sections`).
    public static func topLevelKeys(in registry: KindRegistry) -> [String] {
        ConfigValidator.topLevelKeys(in: registry)
    }
    /// Top-level keys with this prefix are the user's own.
    public static let extensionPrefix = ConfigValidator.extensionPrefix
    public static let settingsKeys = ConfigValidator.settingsKeys
    /// The keys every widget takes; a kind adds its own (`WidgetKind.widgetKeys`).
    public static let widgetKeys = ConfigValidator.widgetKeys
}
