import Foundation
import Glibc
import Kind
import Providers
import Runtime
import TestSupport
import Testing

@testable import Daemon

/// The daemon itself, in this process, on a clock the test moves (`ManualClock`), as NIO's `EmbeddedEventLoop` is:
/// the test takes the loop's turns, so a delay, a retry or a lifetime passes by `advance(by:)` instead of by waiting.
///
/// Its files, FIFO and inotify watches are real, in a temporary directory; its providers run on their own threads, and
/// their answers wake a turn at once. The clock starts years ahead of the wall clock, so the wall-clock timer never
/// fires by itself: only `advance` passes a deadline. No signal reaches it, and its stop ends no command of this
/// process (tests beside it run theirs). Its `exec` scripts run here too: a daemon that did not adopt its process's
/// orphans reaps only the children it started (`ProcessHygiene`), so other tests keep their children's exits.
final class DrivenDaemon {
    static let start = Date(timeIntervalSince1970: 2_000_000_000)

    let directory: TemporaryDirectory
    /// Starts at `start`, or where the earlier daemon's stood.
    let clock: ManualClock
    let lines = Captured()
    let configPath: String
    /// Its XDG directories and HOME, all in `directory`: the environment a command run against it is given.
    let environment: [String: String]
    let daemon: Daemon
    private var stopped = false
    /// The daemon whose directories this one took over, kept until this one is done.
    private let earlier: DrivenDaemon?
    /// Whether `directory` goes with it: not when it is an earlier daemon's, or the test's.
    private let removesDirectory: Bool

    var runtime: String { directory.url.path + "/run/widgetd" }
    var output: String { runtime + "/out" }
    var log: String { lines.all.joined(separator: "\n") }

    /// Starts a daemon on `config` (widgets.yaml in a fresh directory, or in that of `earlier`, stopped, which is then
    /// kept as long as this one, or in the test's `directory`, which the test removes, with what it put there before
    /// the start, such as plugins in `data/widgetd/plugins`; in its subdirectory `configIn` when given) and paints
    /// what the start paints. With `configLink`, the daemon is given a symbolic link by that name in the directory to
    /// that file instead, as a dotfiles repository links it. `kinds`: the built-in kinds it runs, when not those
    /// widgetd ships (system kinds reading a tree the test writes). `store`: the store's path, when not
    /// `data/store.sqlite` (where `widgetd run` puts the one `settings: store:` names). `extra`: variables added to its
    /// environment (`NOTIFY_SOCKET`).
    init(
        config: String, reusing earlier: DrivenDaemon? = nil, in given: TemporaryDirectory? = nil,
        configIn: String? = nil, configLink: String? = nil, kinds: [any WidgetKind]? = nil, store path: String? = nil,
        adding extra: [String: String] = [:]
    ) throws {
        // The daemon's process ignores SIGPIPE from its start (`WidgetdMain`), so that a write to a plugin or a reader
        // that went away fails with EPIPE; this daemon's process is the test run's, which would end on it instead.
        StandardStreams.ignoreSignalsThatEndWrites()
        directory = try earlier?.directory ?? given ?? TemporaryDirectory()
        self.earlier = earlier
        removesDirectory = earlier == nil && given == nil
        clock = ManualClock(earlier?.clock.now ?? Self.start)
        let root = directory.url.path
        for sub in ["run", "state", "data", "home"] {
            try FileManager.default.createDirectory(
                atPath: root + "/" + sub, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        if let configIn {
            try FileManager.default.createDirectory(atPath: root + "/" + configIn, withIntermediateDirectories: true)
        }
        let written = try directory.write(configIn.map { $0 + "/widgets.yaml" } ?? "widgets.yaml", config)
        if let configLink {
            configPath = root + "/" + configLink
            try FileManager.default.createSymbolicLink(atPath: configPath, withDestinationPath: written)
        } else {
            configPath = written
        }
        environment = [
            "XDG_RUNTIME_DIR": root + "/run", "XDG_STATE_HOME": root + "/state", "XDG_DATA_HOME": root + "/data",
            "HOME": root + "/home", "PATH": "/usr/bin:/bin",
        ].merging(extra) { $1 }
        let store = StoreAccess(path: path ?? root + "/data/store.sqlite")
        let lines = self.lines
        daemon = try Daemon(
            configPath: configPath,
            standard: kinds.map { KindRegistry($0, sections: [PluginsSection()]) }
                ?? KindRegistry.standard(store: store),
            store: store, environment: environment, log: Log(level: .debug) { lines.append($0) }, clock: clock)
        daemon.start()
    }

    /// Stopped and freed with the test: its provider threads end at its stop (`ProviderExecutor.finish`), and its
    /// descriptors close with it, so the tests' process does not gather a dozen for every test that ran a daemon.
    deinit {
        stop()
        if removesDirectory { directory.remove() }
    }

    /// Stops it as SIGTERM would, once: entries kept, the FIFO and the lock removed.
    func stop() {
        guard !stopped else { return }
        stopped = true
        daemon.stop(endingEveryProcess: false)
    }

    /// Replaces widgets.yaml the way editors do: write a temporary file, then rename it over.
    func editConfig(_ text: String) throws {
        let temporary = try directory.write(".widgets.yaml.swp", text)
        #expect(rename(temporary, configPath) == 0)
    }

    func read(_ name: String) -> String? {
        try? String(contentsOfFile: output + "/" + name, encoding: .utf8)
    }

    /// Whether the first timeline of `name` has landed (the daemon writes its status file after its entries).
    func hasTimeline(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: runtime + "/status/" + name + ".json")
    }

    /// Writes `text` to the control FIFO in one go, as `printf … > control` does; false when it cannot.
    func writeToFIFO(_ text: String) -> Bool {
        let fifo = open(runtime + "/control", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fifo >= 0 else { return false }
        defer { close(fifo) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { write(fifo, $0.baseAddress!, $0.count) } == bytes.count
    }

    /// Writes `reload NAME ack=TOKEN` to the FIFO and takes turns until its acknowledgement is there, as
    /// `widgetd reload --wait` waits for it.
    func reloadIsAcknowledged(_ name: String, token: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> Bool
    {
        guard writeToFIFO("reload \(name) ack=\(token)\n") else { return false }
        let answer = runtime + "/acks/" + token
        return turns(until: "the acknowledgement of \(token)", sourceLocation: sourceLocation) {
            access(answer, F_OK) == 0
        }
    }

    /// What the daemon answered a request with `token` (`done` and the widgets, or why it failed); nil before it did.
    func acknowledgement(_ token: String) -> String? {
        try? String(contentsOfFile: runtime + "/acks/" + token, encoding: .utf8)
    }

    /// Takes turns, the clock standing still, until `condition` holds, for at most `seconds` of the wall clock, so a
    /// missing event fails the test instead of hanging it. Each turn sleeps until an event (a provider's answer, a file
    /// event, a plugin's line), 100 ms at most, for what wakes no turn (a script's own file, a thread's flag). The
    /// bound is time, not a count of turns: every event wakes a turn, those the test does not wait for too (each batch
    /// of a plugin's log lines, each widget's answer), so on a busy machine, where a script starts slowly, a count ran
    /// out while what the test waited for was still on its way.
    @discardableResult
    func turns(
        until what: String, within seconds: Double = 30, sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: () -> Bool
    ) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while true {
            if condition() { return true }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            turn(timeout: min(left, .milliseconds(100)))
        }
        Issue.record("no \(what) within \(seconds) s", sourceLocation: sourceLocation)
        return false
    }

    /// Takes a turn for what is ready now (the kernel queues a file event before the call that caused it returns),
    /// without waiting and without moving the clock.
    func settle() {
        turn(timeout: .zero)
    }

    /// Moves the clock by `seconds` and takes a turn at the new time.
    func advance(by seconds: TimeInterval) {
        clock.advance(by: seconds)
        turn(timeout: .zero)
    }

    /// A turn of the loop, and the start of the next one: the answers in-process kinds gave at once on the loop's
    /// thread are taken in there, before it would sleep (`Daemon.takeInImmediateAnswers`).
    func turn(timeout: Duration) {
        daemon.turn(timeout: timeout)
        daemon.takeInImmediateAnswers()
        // A child's exit raises SIGCHLD, which no signalfd of this process reads: each turn looks for the daemon's
        // click programs that exited, as the loop does on one (by their pids: no other child of this process).
        daemon.reapChildren()
    }
}
