import Config
import Diagnostics
import Formats
import FoundationEssentials
import Glibc
import Kind
import Providers
import Text
import YAML

/// widgets.yaml read again (an edit, SIGHUP, a `config` line): unchanged widgets keep their timelines, changed ones
/// restart, removed ones lose their files.
extension Daemon {
    /// Re-reads widgets.yaml. An invalid edit keeps the running configuration and logs every error.
    func reloadConfiguration() {
        announceReloading()
        watchConfigTarget()
        // The parse maps code the loop does not run: trimmed again once the widgets it starts have answered.
        workingSetTrimPending = true
        workingSetTrimDue = nil
        // A FIFO put where the file was is not waited for: the loop serves the clocks meanwhile.
        let (loaded, checkedWith) = Self.loadConfiguration(configPath, plugins: plugins, pipeWait: 0)
        guard let configuration = loaded.configuration else {
            // The first errors only, as `check` shows them: a file of 8,000 mistakes must not flood the log.
            for diagnostic in loaded.diagnostics.prefix(ConfigLimits.maxShownErrors) {
                log(diagnostic.severity == .error ? .error : .warning, diagnostic.place)
            }
            // The daemon's kinds are those found when it started; `check` looks for plugins afresh, and accepts a
            // kind installed since. The hint is for such a kind, not for a typo of a known one (`todo`).
            let unknownKinds = loaded.diagnostics.compactMap { diagnostic -> String? in
                if case .unknownKind(let name) = diagnostic.code { return name }
                return nil
            }
            let pluginDirectories = PluginCatalog.directories(environment: environment)
            let maybeAddedSince = unknownKinds.contains { name in
                pluginDirectories.contains { access($0 + "/" + name, X_OK) == 0 }
                    || Suggestion.closest(to: name, in: registry.names) == nil
            }
            log(
                .error,
                "keeping the running configuration (\(loaded.errorSummary) in \(configPath))"
                    + (maybeAddedSince
                        ? "; plugin kinds are found when widgetd starts: restart it to use one added since" : ""))
            announceReloaded(errors: loaded.errorCount)
            return
        }
        for warning in loaded.diagnostics.prefix(ConfigLimits.maxShownErrors) {
            log(.warning, warning.place)
        }
        if configuration.settings != settings {
            log(.warning, "changes to 'settings:' take effect when the daemon restarts")
        }
        registry = checkedWith
        supervisor.configuredPlugins = configuration.plugins
        runningConfigText = loaded.source?.text ?? ""
        stateFiles.writeRunningConfig(runningConfigText, now: clock.now)
        let now = clock.now
        let (gone, actions) = engine.reconfigure(
            configuration.widgets, placeholders: Self.placeholders(configuration.widgets, registry, now), now: now)
        let remaining = Set(configuration.widgets.map(\.name))
        for name in gone {
            do {
                try outputs.remove(instance: name)
            } catch {
                log(.warning, "\(name): cannot remove its files: \(error)")
            }
            // Changed or removed: its persistent command (if any) stops; a changed one starts again on its reload.
            stopSession(of: name)
            if !remaining.contains(name) {
                // A `--wait` for a reload of it would otherwise wait for one that never comes.
                for done in reloads.forget(instance: name) {
                    acknowledge(done.token, failure: done.failure, widgets: done.widgets)
                }
                stateFiles.forgetKept(name)
                outputRetry.forget(name)
                // What its commands left running in the background goes with the widget.
                ProcessHygiene.endEscaped(owner: name)
                stateFiles.removeStatus(of: name)
            }
        }
        log(
            .info,
            "configuration applied: \(counted(configuration.widgets.count, "widget")), \(gone.count) restarted or removed"
        )
        configureBarLines(configuration.bars)
        perform(actions, painting: true)
        logWidgetsWaitingForPlugins()
        announceReloaded(errors: 0)
    }
}

extension Daemon {
    /// Removes the files of widgets an earlier run had and this one's config lacks: their status files name them
    /// (the runtime directory keeps those across restarts), and their bar files, record and kept entry would
    /// otherwise show a removed widget's last text in a bar for ever. A widget removed while the daemon runs loses its
    /// files at once (`reloadConfiguration`); this is the same for one removed while it was stopped. Only names found
    /// in the daemon's own status directory are touched, never other files of the output directory.
    func removeFilesOfWidgetsGoneSinceLastRun() {
        let names = stateFiles.statusFileNames()
        let current = Set(engine.instanceNames)
        for file in names where file.hasSuffix(".json") && !file.hasPrefix(".") {
            let name = String(file.dropLast(".json".count))
            guard !current.contains(name), InstanceName.problem(name) == nil else { continue }
            do {
                try outputs.remove(instance: name)
            } catch {
                log(.warning, "\(name): cannot remove the files of this widget from the last run: \(error)")
                continue
            }
            stateFiles.forgetKept(name)
            stateFiles.removeStatus(of: name)
            log(.info, "\(name): not in \(configPath) any more; removed its files from the last run")
        }
        removeFormatsGoneSinceLastRun(of: Set(names.map { String($0.dropLast(".json".count)) }).intersection(current))
    }

    /// Removes the bar files of formats a widget had in an earlier run and its `output:` no longer lists: a bar
    /// reading `quote.waybar` would otherwise show that run's last entry for ever. As a format dropped while the
    /// daemon runs (the widget restarts and its files are written afresh). One pass over the output directory; only
    /// widgets an earlier run had (their status files) are looked at, so no one else's file is touched.
    private func removeFormatsGoneSinceLastRun(of earlier: Set<String>) {
        guard !earlier.isEmpty else { return }
        var dropped: [String: [OutputFormat]] = [:]
        for file in (try? FileManager.default.contentsOfDirectory(atPath: paths.output)) ?? [] {
            guard !file.hasPrefix("."), let dot = file.lastIndex(of: ".") else { continue }
            let name = String(file[..<dot])
            guard earlier.contains(name), let format = OutputFormat(rawValue: String(file[file.index(after: dot)...])),
                let instance = engine.instance(named: name), !instance.outputs.contains(format)
            else { continue }
            dropped[name, default: []].append(format)
        }
        for (name, formats) in dropped {
            do {
                try outputs.remove(instance: name, formats: formats)
                log(
                    .info,
                    "\(name): removed its \(formats.map(\.rawValue).sorted().joined(separator: ", ")) files from the "
                        + "last run ('output:' lists them no more)")
            } catch {
                log(.warning, "\(name): cannot remove the files of formats it had in the last run: \(error)")
            }
        }
    }
}
