import Basics
import FoundationEssentials
import Providers

/// Plugins (docs/PLUGINS.md): their pushed reloads reach the engine as `reload kind K` or `reload NAME` lines do, their
/// log lines and their hosts' notes reach the daemon's log, and their state goes to a status file per plugin.
extension Daemon {
    var pluginKinds: [PluginKind] { registry.kinds.compactMap { $0 as? PluginKind } }

    /// Hands each plugin host the completion queue; called once, before the loop runs.
    func listenToPlugins() {
        guard !pluginKinds.isEmpty else { return }
        let directory = paths.plugins
        try? PrivateDirectory.make(directory)
        let completions = self.completions
        for kind in pluginKinds {
            kind.host.listen(statusDirectory: directory) { event in completions.post(.plugin(event)) }
        }
    }

    func handle(_ event: PluginEvent) {
        let now = Date()
        switch event {
        case .reload(let kind, nil):
            log(.info, "plugin kind \(kind) asked to reload its widgets")
            request(.kind(kind), acknowledgement: nil, now: now)
        case .restarting(let kind):
            log(.info, "plugin kind \(kind): reloading its widgets, which starts it again")
            request(.kind(kind), acknowledgement: nil, now: now)
        case .reload(let kind, let names?):
            // A plugin reloads only widgets of its own kind; other names are ignored, and said so.
            for name in names.prefix(1000) {
                guard engine.instance(named: name)?.kind == kind else {
                    log(
                        .warning,
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
                perform(engine.providerStopped(instance: name, reason: reason, now: now))
                writeStatus(of: name, now: now)
            }
        }
    }

    func stopPlugins() {
        for kind in pluginKinds { kind.host.stop() }
    }
}
