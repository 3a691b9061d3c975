import Basics
import Config
import Control
import FoundationEssentials
import Glibc
import Kind
import Output
import Providers
import Runtime
import System
import Text
import TimeZones
import Timelines
import YAML

/// `widgetd run`: one thread that owns the engine and every output, sleeping in `EventLoop` until a
/// deadline (a wall-clock timerfd), a FIFO line, a config edit, a signal, or a provider result wakes it.
///
/// Providers run as tasks on threads of our own (a pool of four for in-process kinds, a thread per call for
/// commands); their results come back through `CompletionQueue`, whose wake-up is one of the descriptors the loop
/// polls. Nothing here polls on a period. FIFO lines become requests in `RequestDispatcher`; the daemon's own files
/// besides the outputs are written by `StateFiles`. When to do what is decided by parts with their own state, each
/// tested without a daemon on a clock the tests move (`ReloadDispatcher`, `ConfigWatcher`, `Supervisor`,
/// `DirectoryGuard`, `Presence`, `HangupRereads`, `ClickCommands`; docs/daemon.md): this class carries it out.
final class Daemon {
    let configPath: String
    /// The kinds the running config was checked with: `plugins.registry`, with stand-ins for kinds whose plugins failed
    /// to load (`DaemonPlugins`).
    var registry: KindRegistry {
        didSet {
            runner.registry = registry
            dispatcher.registry = registry
        }
    }
    /// The persistent commands' sessions and the plugins, and when those that failed to load are tried again
    /// (`Supervisor`, `Daemon+Sessions`, `Daemon+Plugins`).
    var supervisor: Supervisor
    var plugins: DaemonPlugins { supervisor.plugins }
    let log: Log
    let environment: [String: String]

    /// The running `settings:`; the widgets live in the engine alone, so a config of 10,000 is not held twice.
    let settings: Settings
    let paths: DaemonPaths
    var engine: Engine<WidgetInstance>
    /// The `bars:` entries, whose lines the daemon writes (`Daemon+BarLines`).
    var barLines: BarLines
    /// Who is connected to the updates socket: bars subscribed to their lines, readers following records
    /// (`Daemon+Updates`).
    var updateSubscribers = UpdateSubscribers()
    /// The sampled widgets whose records are behind their entries, because no one followed them (`writeRecord`).
    var recordsBehind: Set<String> = []
    let outputs: OutputWriter
    /// The one writer of `daemon.json`, the status files, acknowledgements and kept entries.
    var stateFiles: StateFiles
    var runner: ProviderRunner
    /// The store the widgets read, absolute, as `daemon.json` gives it to the CLI.
    let storePath: String
    let completions: CompletionQueue

    /// Replaced when its file was deleted (`Daemon+Runtime`).
    var lock: LockFile
    /// Replaced when it was deleted or replaced; nil only if making it again failed (`Daemon+Runtime`).
    var fifo: ControlFIFO?
    /// The timer, wake-up, inotify and signalfd the daemon sleeps on.
    let loop: EventLoop
    /// Turns FIFO lines into requests (`Daemon+Control` carries them out).
    var dispatcher: RequestDispatcher
    var watcher: Inotify { loop.watcher }
    /// Which file events re-read widgets.yaml, and the watches that see them (`ConfigWatcher`, `Daemon+ConfigWatch`).
    var configWatcher: ConfigWatcher
    var zoneWatch: Inotify.Watch?
    /// Deletions and replacements in the output and runtime directories, and when to repair them (`DirectoryGuard`,
    /// `Daemon+Outputs`, `Daemon+Runtime`).
    var directoryGuard: DirectoryGuard
    /// Output writes that failed, to try again (`Daemon+Outputs`).
    var outputRetry = OutputRetry()
    /// Log lines caused from outside (FIFO lines, providers' messages), limited per source.
    var logLimits = LogRateLimiter()

    /// The reloads waiting for a provider thread, the `--wait` requests waiting for them, and the intents on command
    /// widgets waiting or running: the rules, with no I/O (`ReloadDispatcher`).
    var reloads: ReloadDispatcher
    /// Keeps the store open while store reloads wait for its thread (`Daemon+StoreHold`).
    var storeHold: StoreHold?
    /// Commands started by clicks that have not been reaped yet, and the waiting clicks they answer.
    var clickCommands = ClickCommands()
    var stopping = false
    /// Start-up (or a config reload) ran since the working set was last trimmed, and when to trim it once every widget
    /// has answered (`Daemon+WorkingSet`).
    var workingSetTrimPending = true
    var workingSetTrimDue: Date?
    /// Bar files were renamed and their readers have not been let run since (`Daemon.letReadersRun`).
    var readersWaiting = false
    /// Whether this turn of the loop has already let the bar files' readers run (`Daemon.letReadersRun`).
    var readersHadTheirTurn = false
    /// systemd's notification socket, when it runs the daemon (`Daemon+Presence`).
    let notifier: SystemdNotifier?
    /// What `daemon.json` and systemd are told, and when the watchdog's keep-alive is due (`Presence`).
    var presence: Presence
    /// When to re-read the config for SIGHUPs taken, and when it last was (`Daemon+Signals`).
    var hangupRereads = HangupRereads()
    /// The text of the config the daemon runs, for the CLI (`RunningConfig`): a few kilobytes, written again when the
    /// runtime directory is.
    var runningConfigText: String
    /// Where every reading of the time comes from: the wall clock, or in tests one they set by hand.
    let clock: any DaemonClock

    /// Why the daemon could not start, worded for the user.
    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    /// Sets everything up; the signals must already be blocked in this thread (`WidgetdMain` does it
    /// first thing), so the signalfd sees them. `standard`: the built-in kinds; the plugins' are found here.
    init(
        configPath: String, standard: KindRegistry, store: StoreAccess, environment: [String: String], log: Log,
        clock: any DaemonClock = SystemClock()
    ) throws {
        self.clock = clock
        presence = Presence(startedAt: clock.now, watchdog: Watchdog(environment: environment))
        reloads = ReloadDispatcher(clock: clock)
        self.configPath = configPath
        configWatcher = ConfigWatcher(path: configPath)
        let plugins = DaemonPlugins.load(
            standard: standard, configPath: configPath, environment: environment, now: clock.now)
        self.environment = environment
        self.log = log
        storePath =
            store.path.hasPrefix("/") ? store.path : FileManager.default.currentDirectoryPath + "/" + store.path
        notifier = SystemdNotifier(environment: environment)

        let (loaded, registry) = Self.loadConfiguration(configPath, plugins: plugins)
        guard let configuration = loaded.configuration else {
            throw StartError(description: loaded.renderedDiagnostics())
        }
        self.registry = registry
        supervisor = Supervisor(plugins: plugins, configuredPlugins: configuration.plugins)
        runningConfigText = loaded.source?.text ?? ""
        settings = configuration.settings
        paths = DaemonPaths(environment: environment, settings: configuration.settings)
        directoryGuard = DirectoryGuard(output: paths.output, runtime: paths.control.directory)
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
        // Made, or checked, in the runtime directory's descriptor: a link at acks/ or status/ is refused, as one in the
        // runtime directory's place is (the daemon writes there, and follows no link it did not make).
        var runtime = RuntimeDirectory(control: paths.control)
        do {
            for entry in RuntimeDirectory.Entry.allCases { try runtime.make(entry) }
        } catch {
            lock.remove()
            throw StartError(description: "widgetd: error: \(error)")
        }
        // Left by a daemon before this one (or for its clients that gave up): nobody waits for them any more. Only
        // with the lock held: a second daemon that is refused must not take the running one's acknowledgements.
        runtime.removeEveryFile(in: .acknowledgements)
        do {
            fifo = try ControlFIFO(path: paths.control.fifo)
            outputs = try OutputWriter(directory: paths.output)
            loop = try EventLoop(signals: DaemonSignals.handled, signalLimit: Self.signalsPerWake, clock: clock)
        } catch {
            lock.remove()
            throw StartError(description: "widgetd: error: \(error)")
        }
        // A time-zone change replaces /etc/localtime; timerfd does not report it, inotify does.
        zoneWatch = try? loop.watcher.watch(directory: "/etc", mask: [.movedTo, .create, .closeWrite, .delete])

        let memory: EntryMemory?
        do {
            memory = try EntryMemory(directory: paths.entries)
        } catch {
            log(.warning, "cannot keep entries across restarts in \(paths.entries): \(error)")
            memory = nil
        }
        stateFiles = StateFiles(paths: paths, runtime: runtime, memory: memory, log: log)
        let wakeup = loop.wakeup
        completions = CompletionQueue(wake: { wakeup.signal() })
        dispatcher = RequestDispatcher(registry: registry)
        runner = ProviderRunner(
            registry: registry, queue: completions, executor: ProviderExecutor(threads: 4), store: store, clock: clock)
        let now = clock.now
        let kept = configuration.widgets.filter { registry.kind(named: $0.kind)?.keepsEntryAcrossRestarts != false }
        let restored = memory?.recall(kept, at: now) ?? [:]
        engine = Engine(
            instances: configuration.widgets,
            fallback: { restored[$0.name] ?? Self.placeholder(of: $0, registry, now) }, now: now)
        barLines = BarLines(configuration.bars)
        // The config's directory, not the file: an editor's save-by-rename replaces the file's inode.
        watchConfigDirectory()
        watchConfigTarget()
        watchOutputDirectory()
        watchRuntimeDirectory()
        watchStatusDirectory()
        listenToPlugins()
        listenForUpdates()
    }

    /// Runs until SIGTERM or SIGINT; returns the exit code.
    func run() -> Int32 {
        if !ProcessHygiene.adoptOrphans() {
            log(.warning, "cannot become the subreaper of commands' orphans: their background processes may linger")
        }
        start()
        while !stopping { turn() }
        stop(endingEveryProcess: true)
        return ExitCode.success
    }

    /// Says it started, paints every widget and asks for their first timelines: what comes before the first turn.
    func start() {
        log(
            .info,
            "started: \(counted(engine.instanceNames.count, "widget")) from \(configPath); outputs in \(paths.output); "
                + "control FIFO \(paths.control.fifo)")
        // glibc reads local times as UTC then, silently; a clock an hour or more off says no more than that.
        if let problem = Zone.localProblem {
            log(.warning, "the local time zone: \(problem); local times are in UTC")
        }
        for plugin in plugins.failed.values.sorted(by: { $0.source.name < $1.source.name }) {
            log(.warning, DaemonPlugins.describe(plugin) + "; trying again at once, waiting longer for its hello")
            if let earlier = DaemonPlugins.earlierStandardError(of: plugin) { log(.warning, earlier) }
        }
        logWidgetsWaitingForPlugins()
        perform(engine.advance(now: clock.now), painting: true)
        removeFilesOfWidgetsGoneSinceLastRun()
        removeLinesOfBarsGoneSinceLastRun()
        announceStarted()
    }

    /// One turn of the loop: sleeps until the next deadline or event (at most `timeout`, for tests; nil: as long as it
    /// takes), then handles what woke it and advances the engine to the clock's time.
    func turn(timeout: Duration? = nil) {
        do {
            readersHadTheirTurn = false
            takeInImmediateAnswers()
            writeBarLines(now: clock.now)
            sayTurnEnded()
            trimWorkingSetWhenDue(now: clock.now)
            if outputs.hasSparesToEmpty {
                letReadersRun()
                outputs.emptyRetiredSpares()
            }
            // Sleeping lets the readers of this turn's files run: the next turn owes them no `sched_yield`.
            readersWaiting = false
            // Results that came since `takeInImmediateAnswers` are taken in without sleeping; from here on, one that
            // comes wakes the loop.
            let sleeps = completions.loopMaySleep()
            let wake = try loop.wait(
                until: nextHousekeeping(after: engine.nextDeadline()), control: fifo?.fileDescriptor,
                others: updateSubscribers.descriptors, timeout: sleeps ? timeout : .zero)
            completions.loopAwake()
            if wake.clockChanged {
                log(.info, "the wall clock changed: looking at every widget again")
                directoryGuard.clockChanged(now: clock.now)
                perform(engine.clockChanged(now: clock.now))
            }
            if wake.completions || !sleeps { handleCompletions() }
            if wake.controlLines { handleControlLines() }
            if let others = wake.others { handleUpdateSockets(others) }
            if !wake.fileEvents.isEmpty { handleFileEvents(wake.fileEvents) }
            if !wake.signals.isEmpty { handleSignals(wake.signals) }
            if directoryGuard.outputRepairIsDue(now: clock.now) { repairOutputs() }
            doHousekeeping(now: clock.now)
            perform(engine.advance(now: clock.now))
        } catch {
            // A failed poll or timer call is a bug or a resource limit; say so and keep serving.
            log(.error, "\(error)")
        }
    }

    // MARK: - Events

    private func handleFileEvents(_ events: [Inotify.Event]) {
        let overflow = events.contains { $0.mask.contains(.queueOverflow) }
        if overflow || events.contains(where: { $0.watch == zoneWatch && $0.name == "localtime" }) {
            zoneChanged()
        }
        handleConfigEvents(events)
        handleOutputEvents(events)
        handleRuntimeEvents(events)
    }

    /// The local time zone changed: local cron times move, and timelines rendered in the old zone (a clock)
    /// are stale, so every widget is looked at again and reloaded.
    private func zoneChanged() {
        Zone.resetCurrent()
        log(.info, "the local time zone is now \(Zone.current.identifier): reloading every widget")
        let now = clock.now
        perform(engine.clockChanged(now: now))
        engine.request(.all, now: now)
    }

    /// Stops serving: sessions and plugins end, entries are kept, the FIFO and the lock go, the provider threads end
    /// once idle. `endingEveryProcess`: the commands still running in this process end too, which a test that runs a
    /// daemon beside others must not ask.
    func stop(endingEveryProcess: Bool) {
        announceStopping()
        // Commands still running would otherwise run on with no one to read them, and what they started in the
        // background (`setsid` included) must not outlive the daemon.
        stopAllSessions()
        stopPlugins()
        if endingEveryProcess {
            RunningCommands.terminateAll()
            ProcessHygiene.endAll()
        }
        for name in engine.instanceNames { remember(name, unlessKept: true) }
        stopServingUpdates()
        // The bar files stay for the bars; their hidden spares (AtomicFile+Spare) go.
        outputs.removeSpares()
        // Each only if the path still names this daemon's own (not a newer daemon's after an rm -rf).
        fifo?.remove()
        lock.remove()
        // The provider threads end once the calls they hold are run: a process that goes on after its daemon (a
        // test's) keeps none of them.
        runner.executor.finish()
        runner.storeExecutor.finish()
        log(.info, "stopped")
    }

    static func placeholders(
        _ instances: [WidgetInstance], _ registry: KindRegistry, _ now: Date
    ) -> [String: EntryContent] {
        var placeholders: [String: EntryContent] = [:]
        for instance in instances {
            placeholders[instance.name] = placeholder(of: instance, registry, now)
        }
        return placeholders
    }

    /// The placeholder of `instance`'s kind; nil for a kind the registry does not know.
    static func placeholder(of instance: WidgetInstance, _ registry: KindRegistry, _ now: Date) -> EntryContent? {
        guard let kind = registry.kind(named: instance.kind) else { return nil }
        let context = ProviderContext(
            instance: instance.name, family: instance.family, now: now, timeZone: instance.timeZone ?? .current)
        return kind.placeholder(in: context)
    }
}
