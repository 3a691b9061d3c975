import Basics
import Config
import Control
import Dispatch
import FoundationEssentials
import Glibc
import Kind
import Providers
import Runtime
import Store
import Synchronization
import System

/// The `widgetd` executable: parse the command line, run one command, exit with its code. Its entry point is in
/// Sources/Main, an executable target of its own (Package.swift says why), which hands it the daemon to start.
public struct WidgetdMain {
    /// Synchronous on purpose: `run` must block its signals before any other thread exists, so every
    /// thread inherits the mask and only the daemon's signalfd sees SIGHUP, SIGTERM and SIGINT.
    public static func main(daemon: DaemonLauncher) {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let stopping: [Int32] = [SIGHUP, SIGTERM, SIGINT]
        // A reader that goes away (a closed pipe on stdout or stderr) makes writes fail with EPIPE, which the daemon's
        // log counts and a command's console ends on quietly, instead of SIGPIPE killing the process (and the daemon
        // leaving its FIFO and lock behind).
        StandardStreams.ignoreSignalsThatEndWrites()
        do {
            let command = try? CommandLineParser.parse(arguments)
            // The daemon and a bar hand back start-up's pages once running: of the files mapped now, before anything
            // loads a library it may unload again.
            switch command {
            case .run?, .bar?: WorkingSet.recordStartupFiles()
            default: break
            }
            if case .run? = command {
                MallocSettings.returnLargeBlocksWhenFreed()
                try SignalFile.blockInThisThread(DaemonSignals.handled)
            } else {
                // `bar` takes i3bar's stop and continue signals on a signalfd.
                if case .bar? = command { try SignalFile.blockInThisThread(BarCommand.signals) }
                DaemonSignals.ignore(in: command)
                // A parent may start us with these blocked (Foundation's Process does): a `show --follow`
                // that cannot be stopped by SIGTERM would outlive its bar.
                try SignalFile.unblockInThisThread(stopping + [SIGPIPE])
            }
        } catch {
            Console.standard.err("widgetd: error: \(error)")
            exit(ExitCode.failure)
        }
        exit(run(arguments, environment: ProcessInfo.processInfo.environment, daemon: daemon))
    }

    /// Runs async work from the synchronous main thread and waits for it.
    static func blocking(_ body: @escaping @Sendable () async -> Int32) -> Int32 {
        let result = Mutex<Int32>(ExitCode.failure)
        let done = DispatchSemaphore(value: 0)
        Task {
            let code = await body()
            result.withLock { $0 = code }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }

    static func run(
        _ arguments: [String], environment: [String: String], console: Console = .standard, daemon: DaemonLauncher
    ) -> Int32 {
        let command: Command
        do {
            command = try CommandLineParser.parse(arguments)
        } catch {
            console.report(error)
            return ExitCode.usage
        }
        // Only a path: resolving it reads nothing.
        let configPath = ConfigPath.resolve(explicit: command.configPath, environment: environment)
        // The store the config's settings name, read only by the commands that need it (`readsConfig` of their
        // `CommandDeclaration`): `help`, `--version`, `cron` and `import` answer whatever state widgets.yaml is in, and
        // never wait on it.
        var store: StoreAccess { StoreAccess(path: storePath(configPath: configPath, environment: environment)) }
        // Made only by the commands that need kinds, once each: finding the plugins may run one until its hello, which
        // `todos add`, `cron` or `--version` never wait for.
        var registry: KindRegistry {
            PluginSetup.registry(
                standard: KindRegistry.standard(store: store), configPath: configPath, environment: environment)
        }
        // The kinds of the config the running daemon runs (`WidgetSource`), for the commands that resolve widgets
        // against it: the plugins its `plugins:` names, which a widgets.yaml saved with a YAML mistake names no more.
        func runningRegistry(explicit path: String?) -> KindRegistry {
            let source = WidgetSource(
                configPath: RunningDaemon.configPath(explicit: path, environment: environment), environment: environment
            )
            return PluginSetup.registry(
                standard: KindRegistry.standard(store: store), configured: source.plugins, environment: environment)
        }
        switch command {
        case .help(let topic):
            console.out(Help.text(for: topic))
            return ExitCode.success
        case .version:
            console.out("widgetd \(version)")
            return ExitCode.success
        case .check(let path):
            return CheckCommand.run(
                configPath: ConfigPath.resolve(explicit: path, environment: environment), registry: registry,
                console: console)
        case .kinds:
            return KindsCommand.run(registry: registry, console: console)
        case .plugins:
            return PluginsCommand.run(configPath: configPath, environment: environment, console: console)
        case .importI3blocks(let file, let output):
            return ImportCommand.run(
                file: file, i3blocksOutput: output, environment: environment, console: console)
        case .importI3status(let file):
            return ImportCommand.runI3status(file: file, environment: environment, console: console)
        case .preview(let kind, let family, let settings, let path):
            // A store-backed kind previews what the app commands edit, the running daemon's store (`StoreLocation`);
            // a config that cannot be read only leaves the default, as a preview needs no config.
            let location =
                (try? StoreLocation.resolve(explicit: path, environment: environment))
                ?? storePath(configPath: configPath, environment: environment)
            let kinds = PluginSetup.registry(
                standard: KindRegistry.standard(store: StoreAccess(path: location)), configPath: configPath,
                environment: environment)
            return blocking {
                await PreviewCommand.run(
                    kind: kind, family: family, settings: settings, registry: kinds, console: console)
            }
        case .cron(let expression, let count, let from, let timeZone):
            return CronCommand.run(
                expression: expression, count: count, from: from, timeZoneName: timeZone, console: console)
        case .run(let path, let level):
            // The daemon finds the plugins itself: one that fails to load is tried again while it runs.
            let daemonStore = store
            return daemon.run(
                ConfigPath.resolve(explicit: path, environment: environment),
                level.flatMap(LogLevel.init(name:)) ?? .info, KindRegistry.standard(store: daemonStore),
                daemonStore,
                environment, console.err)
        case .list:
            return ListCommand.run(
                registry: runningRegistry(explicit: nil), environment: environment, console: console)
        case .status(let path):
            return StatusCommand.run(
                configPath: ConfigPath.resolve(explicit: path, environment: environment), registry: registry,
                environment: environment, console: console)
        case .doctor(let path):
            return DoctorCommand.run(
                configPath: ConfigPath.resolve(explicit: path, environment: environment), registry: registry,
                environment: environment, console: console)
        case .generate(let request):
            return GenerateCommand.run(request, registry: registry, environment: environment, console: console)
        case .show(let instance, let format, let follow, let path):
            return ShowCommand.run(
                instance: instance, formatName: format, follow: follow,
                configPath: RunningDaemon.configPath(explicit: path, environment: environment),
                registry: runningRegistry(explicit: path),
                environment: environment, console: console)
        case .bar(let widgets, let bar, let path):
            return BarCommand.run(
                widgets: widgets, bar: bar,
                configPath: RunningDaemon.configPath(explicit: path, environment: environment),
                registry: runningRegistry(explicit: path), environment: environment, console: console)
        case .click(let instance, let button, let relativeX, let width, let details, let wait, let path):
            return ControlLineCommand.send(
                .click(instance: instance, button: button, relativeX: relativeX, width: width, details: details),
                wait: wait,
                configPath: RunningDaemon.configPath(explicit: path, environment: environment),
                registry: runningRegistry(explicit: path),
                environment: environment, console: console)
        case .intent(let instance, let intent, let parameters, let wait, let path):
            return ControlLineCommand.send(
                .intent(
                    instance: instance, intent: intent,
                    parameters: parameters.map { ControlCommand.Parameter($0.key, $0.value) }),
                wait: wait, configPath: RunningDaemon.configPath(explicit: path, environment: environment),
                registry: runningRegistry(explicit: path), environment: environment, console: console)
        case .app(let app, let path):
            let location: String
            do {
                location = try StoreLocation.resolve(explicit: path, environment: environment)
            } catch {
                console.err("widgetd: error: \(error)")
                return ExitCode.failure
            }
            return AppCommands.run(
                app, store: StoreAccess(path: location), configPath: configPath, environment: environment,
                console: console)
        case .reload(let target, let wait, let timeout, let path):
            return ReloadCommand.run(
                target: target, wait: wait, timeout: timeout,
                configPath: RunningDaemon.configPath(explicit: path, environment: environment),
                registry: runningRegistry(explicit: path),
                environment: environment, console: console)
        }
    }

    static let version = "0.1.0"

    /// `settings.store` of the config, else `$XDG_DATA_HOME/widgetd/store.sqlite`.
    static func storePath(configPath: String, environment: [String: String]) -> String {
        if let path = ConfigLoader.settings(path: configPath).store {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? Path.homeDirectory()
            return DaemonPaths.expandingTilde(path, home: home)
        }
        return SharedStore.defaultPath(environment: environment)
    }
}
