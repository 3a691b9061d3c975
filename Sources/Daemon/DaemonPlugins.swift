import Config
import FoundationEssentials
import Kind
import Providers

/// The daemon's kinds: the built-in ones, the plugins that said hello, and, for the plugins that did not, stand-ins
/// (`UnloadedPluginKind`) and a schedule to try them again.
///
/// A plugin that fails to load (silent past its deadline, a hello refused, a crash) must not stop the daemon, nor keep
/// its widgets out of the running config for good: its widgets show a stale placeholder with the reason, the rest run,
/// and it is run again after `retryDelays` (the first at once, with the longer deadline `PluginCatalog.
/// daemonHelloDeadline`, for a plugin slow to start at login) until it says hello. Pure: the daemon passes the time
/// and runs the probes (`Daemon+Plugins`).
struct DaemonPlugins {
    /// The built-in kinds and the loaded plugins' kinds, without stand-ins.
    private(set) var registry: KindRegistry
    /// The loaded plugins' kinds, whose hosts the daemon listens to (`Daemon.listenToPlugins`).
    private(set) var pluginKinds: [PluginKind]
    /// The plugins that failed to load, by name, as last tried.
    private(set) var failed: [String: FoundPlugin]
    /// When to run the failed plugins again; nil while none failed or a try is under way.
    private(set) var retryDue: Date?
    private var tries = 0

    /// How long after a failed try the next one starts: at once after the start-up's short wait, then doubling up to
    /// five minutes, as a failing provider's reloads do.
    static let retryDelays: [TimeInterval] = [0, 10, 20, 40, 80, 160, 300]

    /// Loads the plugins as the daemon starts: each run again, whatever failure the cache remembers (it may have been
    /// fixed since), with a command's short deadline, so a silent plugin holds up the start 3 s, not 10.
    static func load(standard: KindRegistry, configPath: String, environment: [String: String], now: Date)
        -> DaemonPlugins
    {
        let found = PluginCatalog.load(
            environment: environment, configured: ConfigLoader.plugins(path: configPath), builtIn: standard.names,
            retrying: .failures)
        return DaemonPlugins(standard: standard, found: found, now: now)
    }

    init(standard: KindRegistry, found: [FoundPlugin], now: Date) {
        pluginKinds = found.compactMap(PluginKind.init(serving:))
        registry = standard.adding(pluginKinds, from: found)
        failed = [:]
        // A kind another has is no failure to try again: the widgets of that name are the other kind's.
        for plugin in found where plugin.declaration == nil && !plugin.isClash { failed[plugin.source.name] = plugin }
        retryDue = failed.isEmpty ? nil : now.addingTimeInterval(Self.retryDelays[0])
    }

    /// `registry` with a stand-in for each of `kinds`, so that widgets of a kind a failed plugin may provide run as
    /// placeholders instead of the config failing. The stand-ins come first: a kind that has loaded since but that the
    /// running config has not been checked with yet (widgets.yaml had errors then) stays a stand-in until it is.
    func registry(standingInFor kinds: Set<String>) -> KindRegistry {
        guard !kinds.isEmpty else { return registry }
        let standIns = kinds.sorted().map { UnloadedPluginKind(name: $0, reason: reason(for: $0)) }
        return registry.with(kinds: standIns + registry.kinds, unavailable: registry.unavailable)
    }

    /// Why `kind` is missing: the plugin that provides it (by its name, or the kind it declared when it last loaded),
    /// else every plugin that failed, one of which may.
    func reason(for kind: String) -> String {
        if registry.kind(named: kind) != nil {
            return "its plugin has loaded since, and serves it once widgets.yaml checks again (it has errors)"
        }
        let plugins = failed.values.sorted { $0.source.name < $1.source.name }
        if let plugin = plugins.first(where: { $0.source.name == kind || $0.lastKind == kind }) {
            return Self.describe(plugin)
        }
        guard !plugins.isEmpty else { return "no plugin provides it" }
        return "no plugin that loaded provides it, and "
            + plugins.map(Self.describe).joined(separator: "; ")
    }

    /// `plugin 'slow' (widgets.yaml) said no hello within 3 s`.
    static func describe(_ plugin: FoundPlugin) -> String {
        "plugin '\(plugin.source.name)' (\(plugin.source.origin)) failed to load: \(plugin.error ?? "unknown error")"
    }

    /// The lines of standard error before the last (which `describe` shows) as one log line, or nil when there are
    /// none: a traceback's frames say where a plugin failed.
    static func earlierStandardError(of plugin: FoundPlugin) -> String? {
        PluginStatus.earlierStandardError(plugin.standardError).map { "plugin '\(plugin.source.name)' \($0)" }
    }

    /// A try of the failed plugins starts: no other until it ends.
    mutating func retryStarted() -> Set<String> {
        retryDue = nil
        return Set(failed.keys)
    }

    /// What a try of the failed plugins ended with.
    struct Retried {
        /// The plugins that said hello, as kinds, for their hosts to be started.
        var loaded: [PluginKind] = []
        /// The plugins that said hello with a kind another already has: not tried again.
        var refused: [FoundPlugin] = []
    }

    /// A try ended with what each plugin said: those that said hello become kinds, the rest are tried again later.
    /// `found`: nil when the try could not be made (no thread); nothing changes but the next try's time.
    mutating func retried(_ found: [FoundPlugin]?, now: Date) -> Retried {
        tries += 1
        let delay = Self.retryDelays[min(tries, Self.retryDelays.count - 1)]
        guard let found else {
            retryDue = failed.isEmpty ? nil : now.addingTimeInterval(delay)
            return Retried()
        }
        var result = Retried()
        for plugin in found {
            guard let declaration = plugin.declaration else {
                if failed[plugin.source.name] != nil { failed[plugin.source.name] = plugin }
                continue
            }
            guard registry.kind(named: declaration.name) == nil else {
                var clash = plugin
                clash.declaration = nil
                clash.error = "declares kind '\(declaration.name)', which another kind already has"
                failed[plugin.source.name] = nil
                result.refused.append(clash)
                continue
            }
            guard let kind = PluginKind(serving: plugin) else { continue }
            failed[plugin.source.name] = nil
            result.loaded.append(kind)
        }
        // A plugin gone from the directories and the running config's `plugins:` since is not tried again.
        let stillThere = Set(found.map(\.source.name))
        failed = failed.filter { stillThere.contains($0.key) }
        var unavailable = registry.unavailable
        for kind in result.loaded {
            unavailable[kind.host.name] = nil
            unavailable[kind.name] = nil
        }
        registry = registry.with(kinds: registry.kinds + result.loaded, unavailable: unavailable)
        pluginKinds += result.loaded
        retryDue = failed.isEmpty ? nil : now.addingTimeInterval(delay)
        return result
    }
}
