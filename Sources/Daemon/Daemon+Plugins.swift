import Basics
import Config
import FoundationEssentials
import Kind
import Providers
import Runtime
import System

/// Plugins (docs/PLUGINS.md): their pushed reloads reach the engine as `reload kind K` or `reload NAME` lines do, their
/// log lines and their hosts' notes reach the daemon's log, and their state goes to a status file per plugin.
extension Daemon {
    /// Hands each plugin host the completion queue and the daemon's clock; called once, before the loop runs.
    func listenToPlugins() {
        for kind in plugins.pluginKinds { listen(to: kind) }
    }

    private func listen(to kind: PluginKind) {
        let directory = paths.plugins
        try? PrivateDirectory.make(directory)
        let completions = self.completions
        kind.host.listen(statusDirectory: directory, clock: clock) { event in completions.post(.plugin(event)) }
    }

    /// widgets.yaml checked with the daemon's kinds, and the registry it was checked with: when it names kinds that
    /// none has while some plugin failed to load, with a stand-in for each (`DaemonPlugins`), so that a plugin that
    /// cannot start costs its own widgets, not the daemon.
    ///
    /// Only the first errors of a file are kept (`ConfigLimits.maxShownErrors`), so a kind named after more than those
    /// is found on a later check: a few rounds, each adding the unknown kinds it finds.
    static func loadConfiguration(
        _ path: String, plugins: DaemonPlugins, pipeWait: TimeInterval = FileReading.pipeWait
    ) -> (ConfigLoadResult, KindRegistry) {
        var registry = plugins.registry
        var loaded = ConfigLoader.load(path: path, registry: registry, pipeWait: pipeWait)
        guard !plugins.failed.isEmpty else { return (loaded, registry) }
        var standIns: Set<String> = []
        for _ in 0..<8 where loaded.configuration == nil {
            let unknownKinds = Set(
                loaded.diagnostics.compactMap { diagnostic -> String? in
                    if case .unknownKind(let name) = diagnostic.code { return name }
                    return nil
                })
            guard !unknownKinds.isSubset(of: standIns) else { break }
            standIns.formUnion(unknownKinds)
            registry = plugins.registry(standingInFor: standIns)
            loaded = ConfigLoader.load(path: path, registry: registry, pipeWait: pipeWait)
        }
        return (loaded, registry)
    }

    /// Says which widgets wait for a plugin that failed to load, and why (at start and at each config reload).
    func logWidgetsWaitingForPlugins() {
        for name in engine.instanceNames {
            guard let instance = engine.instance(named: name),
                let standIn = registry.kind(named: instance.kind), let reason = standIn.notLoadedReason
            else { continue }
            log(
                .warning,
                "\(name): kind '\(LogText.excerpt(standIn.name))' is not loaded (\(reason)); the widget shows a "
                    + "placeholder until the plugin loads")
        }
    }

    /// Runs the plugins that failed to load again, on a thread of their own (a silent one takes until its deadline),
    /// when their try is due.
    func retryFailedPluginsWhenDue(now: Date) {
        guard let due = supervisor.pluginRetryDue, due <= now else { return }
        let names = supervisor.plugins.retryStarted()
        let environment = self.environment
        // The running config's `plugins:`, not the file's now: a file saved half-way must not lose them.
        let configured = supervisor.configuredPlugins
        let completions = self.completions
        let work: @Sendable () -> Void = {
            let found = PluginCatalog.load(
                environment: environment, configured: configured, builtIn: [],
                deadline: PluginCatalog.daemonHelloDeadline, retrying: .failures, only: names)
            completions.post(.pluginsRetried(found))
        }
        do {
            try DetachedThread.start(name: "plugin retry", work)
        } catch {
            log(.warning, "cannot try the plugins that failed to load again: \(error)")
            handleRetriedPlugins(nil)
        }
    }

    /// A try of the failed plugins ended: those that said hello start serving their widgets (the config is applied
    /// again, with their kinds in place of the stand-ins), the others are said to have failed again.
    func handleRetriedPlugins(_ found: [FoundPlugin]?) {
        let now = clock.now
        let retried = supervisor.plugins.retried(found, now: now)
        let next = plugins.retryDue.map { " (trying again in \(Int($0.timeIntervalSince(now).rounded())) s)" } ?? ""
        for plugin in found ?? [] {
            guard let failure = plugins.failed[plugin.source.name] else { continue }
            log(.warning, DaemonPlugins.describe(failure) + next)
            if let earlier = DaemonPlugins.earlierStandardError(of: failure) { log(.warning, earlier) }
        }
        for plugin in retried.refused {
            log(.warning, "plugin '\(plugin.source.name)' \(plugin.error ?? "was refused"); not tried again")
        }
        for kind in retried.loaded {
            listen(to: kind)
            log(.info, "plugin '\(kind.host.name)' loaded: kind '\(LogText.excerpt(kind.name))'")
        }
        if !retried.loaded.isEmpty {
            reloadConfiguration()
            for kind in retried.loaded { request(.kind(kind.name), acknowledgement: nil, now: now) }
        }
        // The widgets still waiting keep their kinds' names, so their stand-ins are swapped for ones with the latest
        // reason without a reload (a kind loaded while widgets.yaml has errors waits for the next good check).
        let standIns = Set(registry.kinds.filter { $0.notLoadedReason != nil }.map(\.name))
        if !standIns.isEmpty { registry = plugins.registry(standingInFor: standIns) }
    }

    func handle(_ event: PluginEvent) {
        let now = clock.now
        switch event {
        case .reload(let kind, nil):
            log(.info, from: "plugin \(kind)", "plugin kind \(kind) asked to reload its widgets")
            request(.kind(kind), acknowledgement: nil, now: now)
        case .restarting(let kind):
            log(.info, from: "plugin \(kind)", "plugin kind \(kind): reloading its widgets, which starts it again")
            request(.kind(kind), acknowledgement: nil, now: now)
        case .reload(let kind, let names?):
            // A plugin reloads only widgets of its own kind; other names are ignored, and said so.
            for name in names.prefix(1000) {
                guard engine.instance(named: name)?.kind == kind else {
                    log(
                        .warning, from: "plugin \(kind)",
                        "plugin kind \(kind) asked to reload '\(LogText.excerpt(name))', not one of its widgets")
                    continue
                }
                request(.instance(name), acknowledgement: nil, now: now)
            }
        case .log(let kind, let level, let message):
            // A plugin's own lines come from outside, as a FIFO line does: limited per plugin, with a count of the rest.
            log(LogLevel(name: level) ?? .info, from: "plugin \(kind)", message)
        case .stopped(let kind, let reason):
            for name in engine.instanceNames where engine.instance(named: name)?.kind == kind {
                perform(engine.providerFailed(instance: name, reason: reason, now: now))
                writeStatus(of: name, now: now)
            }
        }
    }

    /// Ends the process of every kind that has one (the plugins').
    func stopPlugins() {
        for kind in registry.kinds { kind.providerProcess?.stop() }
    }
}
