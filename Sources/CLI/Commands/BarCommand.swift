import Basics
import Config
import Control
import Formats
import FoundationEssentials
import Glibc
import Kind
import Runtime
import System
import Text

/// `widgetd bar`: a complete i3bar-protocol status command (`status_command widgetd bar` in i3 or sway) that shows
/// the chosen widgets as one status line and sends each click straight to its widget, with the button and the
/// position within the block.
///
/// A `bars:` entry (`--bar NAME`) is the line the daemon renders for it (`BarLine`): the bar subscribes to it over
/// the daemon's updates socket and passes each new line on (`BarLineFeed`), so a daemon turn that sampled every widget
/// of the bar wakes it once, with one message, and it decodes nothing; on i3bar's pipe, it hands the pipe to the daemon
/// after its first line, and the daemon writes the lines there itself while this process sleeps. Any other choice of
/// widgets follows and reads the records `show --follow` reads, watching only those widgets' files (`RecordWatch`),
/// and writes a new status line only when one of its blocks changes: at a widget's next entry (one wall-clock timer
/// for the earliest) or when the daemon writes a new record. i3bar's `stop_signal` (SIGUSR1 here) pauses the output,
/// as i3bar asks when the bar is hidden; `cont_signal` (SIGUSR2) resumes it with the current line. It exits quietly
/// when i3bar goes (`ReaderLifetime`).
enum BarCommand {
    static let stopSignal = SIGUSR1
    static let continueSignal = SIGUSR2
    /// The signals the main thread blocks before any thread exists, so only the signalfd sees them.
    static let signals = [stopSignal, continueSignal]

    static func run(
        widgets: [String]?, bar: String?, configPath: String, registry: KindRegistry, environment: [String: String],
        console: Console
    ) -> Int32 {
        // The blocks of the config the daemon runs: a widgets.yaml saved with a mistake meanwhile keeps them.
        let source = WidgetSource(configPath: configPath, environment: environment)
        guard let configuration = source.load(registry: registry).configuration else {
            console.err(
                "widgetd: error: \(configPath) has errors; "
                    + "'\(ConfigPath.checkCommand(for: configPath, environment: environment))' shows them")
            return ExitCode.failure
        }
        let items: [BarItem]
        switch select(widgets: widgets, bar: bar, in: configuration, at: configPath) {
        case .success(let chosen): items = chosen
        case .failure(let message):
            console.err("widgetd: error: \(message)")
            return ExitCode.failure
        }
        let paths = RunningDaemon.paths(environment: environment, settings: configuration.settings)
        // The blocks follow edits of widgets.yaml as the daemon does: a widget added or a bar changed shows without
        // restarting the bar. An edit that does not check, or no longer names the chosen widgets, keeps the blocks.
        let reselect = ConfigFollower(
            path: configPath, registry: registry,
            checkCommand: ConfigPath.checkCommand(for: configPath, environment: environment),
            warn: { console.err("widgetd: warning: \($0)") },
            select: { configuration in
                switch select(widgets: widgets, bar: bar, in: configuration, at: configPath) {
                case .success(let chosen): .success(chosen)
                case .failure(let message): .failure("\(message); keeping the blocks shown")
                }
            })
        return follow(
            items, bar: bar, in: paths.output, control: paths.control, config: reselect, console: console)
    }

    enum Selection: Equatable {
        case success([BarItem])
        case failure(String)
    }

    /// The blocks to show: the `--widgets` list, else the `bars:` entry named by `--bar`, else every widget in the
    /// file's order. A failure names `path`, the config read, if given, before what the config holds.
    static func select(
        widgets: [String]?, bar: String?, in configuration: Configuration, at path: String? = nil
    ) -> Selection {
        let place = path.map { " in \($0)" } ?? ""
        let names = configuration.widgets.map(\.name)
        if let widgets {
            for name in widgets where !names.contains(name) {
                return .failure("no widget named '\(name)'\(place)" + WidgetNameCheck.hint(for: name, among: names))
            }
            return widgets.isEmpty
                ? .failure("--widgets names no widget") : .success(widgets.map { BarItem(widget: $0) })
        }
        if let bar {
            guard let definition = configuration.bars.first(where: { $0.name == bar }) else {
                let bars = configuration.bars.map(\.name)
                let known = bars.isEmpty ? "it has no 'bars:' section" : "its bars: \(bars.joined(separator: ", "))"
                return .failure("no bar named '\(bar)'\(place)" + Suggestion.didYouMean(bar, in: bars, then: known))
            }
            return definition.items.isEmpty
                ? .failure("bar '\(bar)'\(place) shows no widget") : .success(definition.items)
        }
        return names.isEmpty ? .failure("no widgets\(place)") : .success(names.map { BarItem(widget: $0) })
    }

    /// The i3bar protocol header: version 1, click events, and the signals that pause and resume the output.
    static var header: String {
        #"{"version":1,"click_events":true,"stop_signal":\#(stopSignal),"cont_signal":\#(continueSignal)}"#
    }

    private static func follow(
        _ chosen: [BarItem], bar: String?, in directory: String, control: ControlPaths, config: ConfigFollower,
        console: Console
    ) -> Int32 {
        guard let lifetime = ReaderLifetime() else { return ExitCode.success }
        var items = chosen
        // A `bars:` entry's line as the daemon pushes or files it; nil: the records of `items` make the line.
        let feed: BarLineFeed?
        var recordPaths = bar == nil ? items.map { directory + "/" + $0.widget + ".json" } : []
        // The records' watch, for a choice of widgets; nil for a `bars:` entry.
        var recordWatch: RecordWatch?
        // The records kept current for as long as the bar runs (a sampled widget's is written only then).
        var following: DaemonSubscription?
        var timer: FollowTurn.Timer
        let signals: SignalFile
        do {
            try PrivateDirectory.make(directory)
            if let bar {
                feed = try BarLineFeed(bar: bar, output: directory, socketPath: control.updates)
            } else {
                feed = nil
                recordWatch = try RecordWatch(records: Array(Set(recordPaths)), in: directory, on: try Inotify())
                following = try follow(items, control: control)
            }
            timer = try FollowTurn.Timer()
            signals = try SignalFile(signals: Self.signals)
        } catch {
            console.err("widgetd: error: cannot watch \(directory): \(error)")
            return ExitCode.failure
        }
        guard lifetime.write(Array((header + "\n[\n").utf8)) else { return ExitCode.success }
        var records: [String: InstanceRecord] = [:]
        for path in Set(recordPaths) { records[path] = ShowCommand.readRecord(path) }
        // Records seen changed and not read yet: while the daemon marks the ends of its turns, those a turn wrote are
        // read when it ends, together.
        var unread = Set<String>()
        // i3bar's click stream; a terminal (someone trying the command by hand) is not one.
        var clicks: FileDescriptor? = isatty(STDIN_FILENO) == 0 ? FileDescriptor(owning: STDIN_FILENO) : nil
        var lines = ClickForwarder.LineSplitter()
        var droppedClicks = DroppedClickLog()
        var last: [UInt8]?
        var output: [UInt8] = []
        var paused = false
        var first = true
        // Start-up's code (the config's parse, the records' first reads) is handed back once the first line is out, and
        // again after an edited config is taken in: a bar runs for days (`WorkingSet`, as the daemon does).
        var trimDue = true
        while true {
            let now = Date()
            // While the daemon writes the bar's lines itself (`BarLineFeed.handOver`), this process writes none.
            if !paused && feed?.handedOver == nil {
                let line: [UInt8]
                if let feed {
                    line = feed.line ?? Array(BarLine.line(items.map(BarBlock.missing)).utf8)
                } else {
                    line = Array(
                        BarLine.line(
                            zip(items, recordPaths).map { item, path in
                                records[path].map { BarBlock.render($0, item: item, at: now) }
                                    ?? BarBlock.missing(item)
                            }
                        ).utf8)
                }
                if line != last {
                    output.removeAll(keepingCapacity: true)
                    if !first { output.append(UInt8(ascii: ",")) }
                    output += line
                    output.append(UInt8(ascii: "\n"))
                    guard lifetime.write(output) else { return ExitCode.success }
                    first = false
                    last = line
                }
            }
            if let feed, !first, !paused { feed.handOver(lifetime.output) }
            if trimDue && !first {
                trimDue = false
                WorkingSet.trim()
            }
            let next = paused ? nil : records.values.compactMap { $0.nextChange(after: now) }.min()
            let sources =
                feed?.descriptors ?? [recordWatch?.watcher.fileDescriptor, following?.descriptor].compactMap { $0 }
            let turn = FollowTurn.wait(
                until: [next, droppedClicks.nextDeadline].compactMap { $0 }.min(), timer: &timer,
                forReadable: [signals.fileDescriptor] + sources
                    + (config.fileDescriptor.map { [$0] } ?? []) + (clicks.map { [$0.rawValue] } ?? []),
                lifetime: lifetime, console: console)
            guard case .ready(let ready) = turn else { return turn.exitCode }
            for line in droppedClicks.flush(now: Date()) { console.err(line) }
            if ready.contains(signals.fileDescriptor) {
                for signal in signals.readSignals() {
                    paused = signal == stopSignal
                    // Resumed: i3bar shows the line it gets next, so write the current one even if unchanged.
                    if !paused { last = nil }
                    feed?.pause(paused)
                }
            }
            if let input = clicks, ready.contains(input.rawValue),
                !forwardClicks(
                    from: input, lines: &lines, items: items, control: control, dropped: &droppedClicks,
                    console: console)
            {
                clicks = nil
            }
            // A turn's end, the answer on a connection made again, or the connection's end: the records written
            // before it are in place.
            var turnEnded = false
            if let following, let descriptor = following.descriptor, ready.contains(descriptor) {
                turnEnded = following.take() != nil || !following.isConnected
            }
            if let feed {
                // The daemon stopped writing the bar's output: its current line is this process's to write again.
                if feed.take(ready) { last = nil }
            } else if var watch = recordWatch {
                let marked = following?.marksTurns == true
                if turnEnded || ready.contains(watch.watcher.fileDescriptor) {
                    unread.formUnion(
                        marked ? watch.changedRecords(watch.watcher.readEvents()) : changedRecordsOfOneTurn(&watch))
                }
                if turnEnded || !marked {
                    for path in unread { records[path] = ShowCommand.readRecord(path) ?? records[path] }
                    unread = []
                }
                recordWatch = watch
            }
            guard let descriptor = config.fileDescriptor, ready.contains(descriptor) else { continue }
            let edited = config.edited()
            // A daemon that turned the bar away may have it in the edited config.
            if let feed {
                feed.configEdited()
                // The daemon renders the edited bar's line itself; the items are for the clicks.
                if let edited { items = edited }
                continue
            }
            guard let edited, edited != items else { continue }
            // New records to watch: a fresh inotify instance drops every watch of the old blocks at once.
            let editedPaths = edited.map { directory + "/" + $0.widget + ".json" }
            do {
                recordWatch = try RecordWatch(records: Array(Set(editedPaths)), in: directory, on: try Inotify())
                following = try follow(edited, control: control)
            } catch {
                console.err("widgetd: warning: cannot watch \(directory): \(error); keeping the blocks shown")
                continue
            }
            items = edited
            recordPaths = editedPaths
            trimDue = true
            records = [:]
            unread = []
            for path in Set(recordPaths) { records[path] = ShowCommand.readRecord(path) }
        }
    }

    /// Follows the records of `items` (`UpdatesMessage.follow`), once the daemon said they are current or did not
    /// answer in time.
    static func follow(_ items: [BarItem], control: ControlPaths) throws(SystemError) -> DaemonSubscription {
        try DaemonSubscription.following(Array(Set(items.map(\.widget))).sorted(), socketPath: control.updates)
    }

    /// How long the bar waits for the next record of the same daemon turn, and at most for all of them.
    static let turnGap = 3
    static let turnLimit = 20

    /// The records changed since the last line, from a daemon that does not mark the ends of its turns (one from before
    /// `UpdatesMessage.written`, or none listening on the socket): those the waiting events name, and those the daemon
    /// writes in the same turn. A daemon turn writes its records a fraction of a millisecond apart (the samples of
    /// every system widget at one deadline); waiting up to `turnGap` ms for each next one, `turnLimit` ms in all, makes
    /// them one status line instead of one each, unless the daemon is held up for longer between two of them.
    private static func changedRecordsOfOneTurn(_ recordWatch: inout RecordWatch) -> Set<String> {
        let watcher = recordWatch.watcher
        var changed = recordWatch.changedRecords(watcher.readEvents())
        var waited = 0
        var more = pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while !changed.isEmpty, waited < turnLimit, retryingInterrupted({ poll(&more, 1, Int32(turnGap)) }) == 1 {
            changed.formUnion(recordWatch.changedRecords(watcher.readEvents()))
            waited += turnGap
        }
        return changed
    }

    /// Reads the click events waiting on `input` and sends each one on a widgetd block to its widget; false once
    /// `input` has ended, so the caller stops polling it.
    private static func forwardClicks(
        from input: FileDescriptor, lines: inout ClickForwarder.LineSplitter, items: [BarItem], control: ControlPaths,
        dropped: inout DroppedClickLog, console: Console
    ) -> Bool {
        let bytes: [UInt8]
        do {
            bytes = try input.read(upTo: 4096)
        } catch {
            return error.errno == EAGAIN
        }
        guard !bytes.isEmpty else { return false }
        for line in lines.lines(adding: bytes) {
            guard let event = BarClickEvent.parse(line: line), event.name == Renderer.blockName,
                let instance = event.instance, items.contains(where: { $0.widget == instance }),
                (1...5).contains(event.button)
            else { continue }
            let click = ClickForwarder.Click(
                button: event.button, relativeX: event.relativeX, width: event.width,
                details: ControlCommand.ClickDetails(
                    x: event.x, y: event.y, relativeY: event.relativeY, height: event.height,
                    modifiers: event.modifiers))
            do {
                try ClickForwarder(instance: instance, paths: control).send(click)
            } catch {
                for line in dropped.dropped(instance, because: error, now: Date()) { console.err(line) }
            }
        }
        return true
    }
}
