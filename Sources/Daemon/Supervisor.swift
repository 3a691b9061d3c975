import FoundationEssentials
import Kind
import Providers

/// The processes the daemon keeps running for its widgets: the persistent commands' sessions, one per instance, and
/// the plugins (`DaemonPlugins`: those loaded, those that failed to load, and when those are tried again).
///
/// Each session carries a generation, so that an update it posted before it was stopped (its widget changed, and a new
/// one started) is not taken for the new one's. A session or plugin process that ends is started again by its own
/// thread after its `RestartBackoff`; a plugin that failed to load at all is tried again on `DaemonPlugins.retryDelays`,
/// which the loop's housekeeping asks through `retryDue`. No I/O here: the daemon starts and stops the processes
/// (`Daemon+Sessions`, `Daemon+Plugins`).
struct Supervisor {
    typealias Running = (generation: UInt64, session: any ProviderSession)

    /// The loaded plugins, and those that failed and are tried again.
    var plugins: DaemonPlugins
    /// The running config's `plugins:`, for those tries: not the file's now, which may be saved half-way.
    var configuredPlugins: [PluginCommand]
    /// Running persistent providers (`interval: persist` commands), by instance.
    private var sessions: [String: Running] = [:]
    private var lastGeneration: UInt64 = 0

    init(plugins: DaemonPlugins, configuredPlugins: [PluginCommand]) {
        self.plugins = plugins
        self.configuredPlugins = configuredPlugins
    }

    /// When the plugins that failed to load are next tried; nil while none failed or a try is under way.
    var pluginRetryDue: Date? { plugins.retryDue }

    /// The generation for a session of `name` to start with, or nil when one runs already: a reload of a persistent
    /// widget leaves a running command alone, as i3blocks leaves a spawned persistent block.
    mutating func generationToStart(_ name: String) -> UInt64? {
        guard sessions[name] == nil else { return nil }
        lastGeneration += 1
        return lastGeneration
    }

    /// `session` started for `name` with `generation` (from `generationToStart`).
    mutating func started(_ session: any ProviderSession, of name: String, generation: UInt64) {
        sessions[name] = (generation, session)
    }

    /// The session running for `name`, if any.
    func session(of name: String) -> (any ProviderSession)? {
        sessions[name]?.session
    }

    /// Whether an update of `name`'s session of `generation` is the running one's; one stopped since is not.
    func isCurrent(_ name: String, generation: UInt64) -> Bool {
        sessions[name]?.generation == generation
    }

    /// Forgets `name`'s session, which the caller stops; nil when none ran.
    mutating func removeSession(of name: String) -> (any ProviderSession)? {
        sessions.removeValue(forKey: name)?.session
    }

    /// The instances whose sessions run.
    var sessionNames: [String] { Array(sessions.keys) }
}
