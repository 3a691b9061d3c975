import Basics
import Foundation
import Glibc
import Providers
import Scheduler

/// `widgetd run`: one thread that owns the engine and every output, sleeping in `poll()` until a
/// deadline (a wall-clock timerfd), a FIFO line, a config edit, a signal, or a provider result wakes it.
///
/// Providers run as tasks on threads of our own (a pool of four for in-process kinds, a thread per call for
/// commands); their results come back through `CompletionQueue`, whose wake-up is one of the descriptors the loop
/// polls. Nothing here polls on a period.
final class Daemon {
    let configPath: String
    let registry: KindRegistry
    let log: Log
    let environment: [String: String]

    /// The running `settings:`; the widgets live in the engine alone, so a config of 10,000 is not held twice.
    let settings: Settings
    let paths: DaemonPaths
    var engine: Engine
    let outputs: OutputWriter
    let memory: EntryMemory?
    let runner: ProviderRunner
    let completions: CompletionQueue

    /// Replaced when its file was deleted (`Daemon+Runtime`).
    var lock: LockFile
    /// Replaced when it was deleted or replaced; nil only if making it again failed (`Daemon+Runtime`).
    var fifo: ControlFIFO?
    let timer: WallClockTimer
    let watcher: Inotify
    let signals: SignalFile
    let wakeup: Wakeup
    var configWatch: Inotify.Watch?
    var zoneWatch: Inotify.Watch?
    /// Deletions in the output directory, so deleted files are written again (`Daemon+Outputs`).
    var outputWatch: Inotify.Watch?
    /// When to put back deleted output files: a moment after the last deletion (`Daemon+Outputs`).
    var repairDue: Date?
    /// The output directory itself was deleted or moved since the last repair.
    var outputDirectoryReplaced = false
    /// Deletions and replacements in the runtime directory (the FIFO, the lock), and when to repair them
    /// (`Daemon+Runtime`).
    var runtimeWatch: Inotify.Watch?
    var runtimeRepairDue: Date?
    /// Output writes that failed, to try again (`Daemon+Outputs`).
    var outputRetry = OutputRetry()
    /// Acknowledgement files written, removed when nobody took them.
    var acknowledgementFiles = AcknowledgementFiles()
    /// Log lines caused from outside (FIFO lines, providers' messages), limited per source.
    var logLimits = LogRateLimiter()
    /// The output directory's parent, for a directory (or a link) put where the output directory was.
    var outputParentWatch: Inotify.Watch?

    /// Reloads waiting for a provider thread; 32 run at once, enough to keep the four threads busy.
    var reloads = ReloadQueue(limit: 32)
    /// Reloads of kinds that run commands, each on a thread of its own while it runs; 64 at once.
    var commandReloads = ReloadQueue(limit: 64)
    /// Reloads of store-backed kinds, one at a time on the store's own thread: its timeout starts when it runs.
    var storeReloads = ReloadQueue(limit: 1)
    /// Acknowledgements waiting for reloads to finish.
    var acknowledgements = AcknowledgementBook()
    /// Commands started by clicks that have not been reaped yet.
    var children: Set<pid_t> = []
    /// Running persistent providers (`interval: persist` commands), by instance (`Daemon+Sessions`).
    var sessions: [String: (generation: UInt64, session: any ProviderSession)] = [:]
    var lastSessionGeneration: UInt64 = 0
    var stopping = false
    /// systemd's notification socket and watchdog, when it runs the daemon (`Daemon+Presence`).
    let notifier: SystemdNotifier?
    var watchdog: Watchdog?
    /// Errors in the config file at the last reload; non-zero while the daemon runs an older config.
    var configErrors = 0
    let startedAt = Date()

    /// Why the daemon could not start, worded for the user.
    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    /// Sets everything up; the signals must already be blocked in this thread (`WidgetdMain` does it
    /// first thing), so the signalfd sees them.
    init(configPath: String, registry: KindRegistry, environment: [String: String], log: Log) throws {
        self.configPath = configPath
        self.registry = registry
        self.environment = environment
        self.log = log
        notifier = SystemdNotifier(environment: environment)
        watchdog = Watchdog(environment: environment)

        let loaded = ConfigLoader.load(path: configPath, registry: registry)
        guard let configuration = loaded.configuration else {
            throw StartError(description: loaded.renderedDiagnostics())
        }
        settings = configuration.settings
        paths = DaemonPaths(environment: environment, settings: configuration.settings)
        for warning in loaded.diagnostics.prefix(ConfigLimits.maxShownErrors) {
            log(.warning, warning.place)
        }

        do {
            try paths.control.prepare()
        } catch {
            throw StartError(description: "widgetd: error: \(error)")
        }
        do {
            lock = try LockFile(path: paths.control.lock)
        } catch {
            throw StartError(description: "widgetd: \(error)")
        }
        // Left by a daemon before this one (or for its clients that gave up): nobody waits for them any more. Only
        // with the lock held: a second daemon that is refused must not take the running one's acknowledgements.
        Self.removeAcknowledgements(in: paths.control.acknowledgements)
        do {
            fifo = try ControlFIFO(path: paths.control.fifo)
            outputs = try OutputWriter(directory: paths.output)
            timer = try WallClockTimer()
            watcher = try Inotify()
            signals = try SignalFile(signals: [SIGHUP, SIGTERM, SIGINT, SIGCHLD] + SignalFile.widgetSignals)
            wakeup = try Wakeup()
            try FileManager.default.createDirectory(
                atPath: paths.status, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            lock.remove()
            throw StartError(description: "widgetd: error: \(error)")
        }
        // The config's directory, not the file: an editor's save-by-rename replaces the file's inode.
        let configDirectory = Path.directory(of: configPath)
        configWatch = try? watcher.watch(directory: configDirectory.isEmpty ? "." : configDirectory)
        // A time-zone change replaces /etc/localtime; timerfd does not report it, inotify does.
        zoneWatch = try? watcher.watch(directory: "/etc", mask: [.movedTo, .create, .closeWrite, .delete])

        do {
            memory = try EntryMemory(directory: paths.entries)
        } catch {
            log(.warning, "cannot keep entries across restarts in \(paths.entries): \(error)")
            memory = nil
        }
        let wakeup = self.wakeup
        completions = CompletionQueue(wake: { wakeup.signal() })
        runner = ProviderRunner(registry: registry, queue: completions, executor: ProviderExecutor(threads: 4))
        let now = Date()
        engine = Engine(
            instances: configuration.widgets, placeholders: Self.placeholders(configuration.widgets, registry, now),
            restored: memory?.recall(configuration.widgets, at: now) ?? [:], now: now)
        watchOutputDirectory()
        watchRuntimeDirectory()
        listenToPlugins()
    }

    /// Runs until SIGTERM or SIGINT; returns the exit code.
    func run() -> Int32 {
        if !ProcessHygiene.adoptOrphans() {
            log(.warning, "cannot become the subreaper of commands' orphans: their background processes may linger")
        }
        log(
            .info,
            "started: \(engine.instanceNames.count) widgets from \(configPath); outputs in \(paths.output); "
                + "control FIFO \(paths.control.fifo)")
        perform(engine.advance(now: Date()))
        announceStarted()
        while !stopping {
            do {
                try timer.arm(at: nextHousekeeping(after: engine.nextDeadline()))
                let fifoDescriptor = fifo?.fileDescriptor ?? -1  // -1: poll skips it
                let ready = try Poller.readable(
                    [
                        timer.fileDescriptor, wakeup.fileDescriptor, fifoDescriptor, watcher.fileDescriptor,
                        signals.fileDescriptor,
                    ], timeout: nil)
                if ready.contains(timer.fileDescriptor), timer.consume() == .clockChanged {
                    log(.info, "the wall clock changed: looking at every widget again")
                    if repairDue != nil { repairDue = Date().addingTimeInterval(Self.repairDelay) }
                    perform(engine.clockChanged(now: Date()))
                }
                if ready.contains(wakeup.fileDescriptor) {
                    _ = wakeup.drain()
                    handleCompletions()
                }
                if fifoDescriptor >= 0, ready.contains(fifoDescriptor) { handleControlLines() }
                if ready.contains(watcher.fileDescriptor) { handleFileEvents() }
                if ready.contains(signals.fileDescriptor) { handleSignals() }
                if let due = repairDue, due <= Date() { repairOutputs() }
                doHousekeeping(now: Date())
                perform(engine.advance(now: Date()))
            } catch {
                // A failed poll or timer call is a bug or a resource limit; say so and keep serving.
                log(.error, "\(error)")
            }
        }
        stop()
        return ExitCode.success
    }

    // MARK: - Events

    private func handleCompletions() {
        for item in completions.drain() {
            switch item {
            case .timeline(let completion):
                switch completion.lane {
                case .shared: reloads.finished()
                case .commands: commandReloads.finished()
                case .store: storeReloads.finished()
                }
                handle(completion)
            case .intent(let completion): handle(completion)
            case .session(let name, let generation, let update): handle(update, of: name, generation: generation)
            case .plugin(let event): handle(event)
            }
        }
        startWaitingReloads()
    }

    private func handle(_ completion: ProviderCompletion) {
        guard engine.isAwaiting(instance: completion.instance, token: completion.token) else { return }
        // A provider's messages come from outside (a script's output): limited per widget.
        switch completion.result {
        case .failure(let failure):
            log(.warning, from: completion.instance, "\(completion.instance): \(failure.message)")
        case .success(let timeline):
            for note in timeline.notes { log(.warning, from: completion.instance, "\(completion.instance): \(note)") }
        }
        let now = Date()
        perform(
            engine.completed(
                instance: completion.instance, token: completion.token, result: completion.result, now: now))
        writeStatus(of: completion.instance, now: now)
        if case .success = completion.result { remember(completion.instance) }
        var failure: String?
        if case .failure(let reason) = completion.result { failure = "\(completion.instance): \(reason.message)" }
        // A timeline that could not be written is no success either: the bars do not show it.
        failure = failure ?? outputRetry.failure(of: completion.instance)
        for (token, failure) in acknowledgements.completed(
            instance: completion.instance, token: completion.token, failure: failure)
        {
            acknowledge(token, failure: failure)
        }
    }

    /// An intent ran: reload what it changed, acknowledging once those reloads are written.
    private func handle(_ completion: IntentCompletion) {
        let now = Date()
        switch completion.outcome {
        case .success(let outcome):
            log(.info, "\(completion.instance): \(completion.intent): \(outcome.message)")
            if let timeline = outcome.timeline {
                perform(engine.install(timeline, for: completion.instance, now: now))
                writeStatus(of: completion.instance, now: now)
                completion.acknowledgement.map {
                    acknowledge($0, failure: outputRetry.failure(of: completion.instance))
                }
                return
            }
            let target: ReloadTarget =
                outcome.reloadsKind ? .kind(completion.kind) : .instance(completion.instance)
            request(target, acknowledgement: completion.acknowledgement, now: now)
        case .failure(let error):
            let reason = "\(completion.instance): \(completion.intent) failed: \(error)"
            log(.warning, reason)
            completion.acknowledgement.map { acknowledge($0, failure: reason) }
        }
    }

    private func handleSignals() {
        for signal in signals.readSignals() {
            switch signal {
            case SIGHUP:
                log(.info, "SIGHUP: re-reading \(configPath)")
                // Also the way to bring back a FIFO or lock whose loss inotify could not report.
                repairRuntime()
                reloadConfiguration()
            case SIGCHLD:
                reapChildren()
            case _ where SignalFile.widgetSignals.contains(signal):
                reloadSignalled(Int(signal - SignalFile.realTimeSignal(0)))
            default:
                log(.info, "signal \(signal): stopping")
                stopping = true
            }
        }
    }

    /// `SIGRTMIN+number` arrived: reload the widgets whose `signal:` names it, as i3blocks does for `signal=`.
    private func reloadSignalled(_ number: Int) {
        let names = engine.instanceNames.filter { engine.instance(named: $0)?.runMode.signal == number }
        log(.info, "signal RTMIN+\(number): reloading \(names.isEmpty ? "nothing" : names.joined(separator: ", "))")
        let now = Date()
        for name in names { engine.request(.instance(name), now: now) }
    }

    private func handleFileEvents() {
        let configName = Path.lastComponent(of: configPath)
        let events = watcher.readEvents()
        let overflow = events.contains { $0.mask.contains(.queueOverflow) }
        if overflow || events.contains(where: { $0.watch == zoneWatch && $0.name == "localtime" }) {
            zoneChanged()
        }
        if overflow || events.contains(where: { $0.watch == configWatch && $0.name == configName }) {
            log(.info, "\(configPath) changed: re-reading it")
            reloadConfiguration()
        }
        handleOutputEvents(events)
        handleRuntimeEvents(events)
    }

    /// The local time zone changed: local cron times move, and timelines rendered in the old zone (a clock)
    /// are stale, so every widget is looked at again and reloaded.
    private func zoneChanged() {
        NSTimeZone.resetSystemTimeZone()
        log(.info, "the local time zone is now \(TimeZone.current.identifier): reloading every widget")
        let now = Date()
        perform(engine.clockChanged(now: now))
        engine.request(.all, now: now)
    }

    /// Re-reads widgets.yaml. An invalid edit keeps the running configuration and logs every error.
    func reloadConfiguration() {
        announceReloading()
        let loaded = ConfigLoader.load(path: configPath, registry: registry)
        guard let configuration = loaded.configuration else {
            // The first errors only, as `check` shows them: a file of 8,000 mistakes must not flood the log.
            for diagnostic in loaded.diagnostics.prefix(ConfigLimits.maxShownErrors) {
                log(.error, diagnostic.place)
            }
            log(.error, "keeping the running configuration (\(loaded.diagnostics.count) errors in \(configPath))")
            announceReloaded(errors: loaded.diagnostics.count)
            return
        }
        for warning in loaded.diagnostics.prefix(ConfigLimits.maxShownErrors) {
            log(.warning, warning.place)
        }
        if configuration.settings != settings {
            log(.warning, "changes to 'settings:' take effect when the daemon restarts")
        }
        let now = Date()
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
                for (token, failure) in acknowledgements.forget(instance: name) { acknowledge(token, failure: failure) }
                memory?.forget(name)
                outputRetry.forget(name)
                // What its commands left running in the background goes with the widget.
                ProcessHygiene.endEscaped(owner: name)
                unlink(InstanceStatusRecord.path(for: name, in: paths.status))
            }
        }
        log(.info, "configuration applied: \(configuration.widgets.count) widgets, \(gone.count) restarted or removed")
        perform(actions)
        announceReloaded(errors: 0)
    }

    private func stop() {
        announceStopping()
        // Commands still running would otherwise run on with no one to read them, and what they started in the
        // background (`setsid` included) must not outlive the daemon.
        stopAllSessions()
        stopPlugins()
        RunningCommands.terminateAll()
        ProcessHygiene.endAll()
        for name in engine.instanceNames { remember(name) }
        // Each only if the path still names this daemon's own (not a newer daemon's after an rm -rf).
        fifo?.remove()
        lock.remove()
        log(.info, "stopped")
    }

    private static func placeholders(
        _ instances: [WidgetInstance], _ registry: KindRegistry, _ now: Date
    ) -> [String: EntryContent] {
        var placeholders: [String: EntryContent] = [:]
        for instance in instances {
            guard let kind = registry.kind(named: instance.kind) else { continue }
            let context = ProviderContext(
                instance: instance.name, family: instance.family, now: now, timeZone: instance.timeZone ?? .current)
            placeholders[instance.name] = kind.placeholder(in: context)
        }
        return placeholders
    }
}
