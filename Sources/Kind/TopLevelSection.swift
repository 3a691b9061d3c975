/// A top-level section of widgets.yaml that belongs to kinds rather than the core (the plugin host's `plugins:`).
/// The registry names it; the config checker takes its key, hands its node to it (Config's `ConfigSectionReader`)
/// and keeps what it read by that key, with no type of the section's own.
public protocol TopLevelSection: Sendable {
    /// The key, as widgets.yaml writes it.
    var key: String { get }
    /// What the section holds, for widgets.yaml(5).
    var summary: String { get }
}
