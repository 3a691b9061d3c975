/// What a plugin tells the daemon on its own, outside any request.
public enum PluginEvent: Sendable {
    /// `reload`: every widget of `kind` (nil instances), or the named ones (WidgetKit's `reloadTimelines(ofKind:)`).
    case reload(kind: String, instances: [String]?)
    /// The host's pause after the plugin ended is over: the kind's widgets are reloaded, which starts it again. Not
    /// the plugin's asking, and logged as such.
    case restarting(kind: String)
    /// `log`, and the host's own notes about the plugin (late replies, garbage, restarts).
    case log(kind: String, level: String, message: String)
    /// The plugin's process ended and will be started again: every widget of the kind shows its last entry, stale.
    case stopped(kind: String, reason: String)
}
