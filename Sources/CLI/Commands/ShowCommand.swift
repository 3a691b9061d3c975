import Basics
import Config
import Formats
import FoundationEssentials
import Glibc
import Kind
import Runtime
import System
import Text
import Timelines

/// `widgetd show NAME`: the current entry in any format, worked out from the record the daemon keeps beside the
/// bar files; with `--follow`, once per change.
enum ShowCommand {
    static func run(
        instance: String, formatName: String?, follow: Bool, configPath: String, registry: KindRegistry,
        environment: [String: String], console: Console
    ) -> Int32 {
        let format: OutputFormat
        if let formatName {
            guard let named = OutputFormat(rawValue: formatName) else {
                console.report(
                    .unknown(
                        "format", formatName, among: OutputFormat.allCases.map(\.rawValue), listing: "formats",
                        command: .show))
                return ExitCode.usage
            }
            format = named
        } else {
            format = .plain
        }
        let source = WidgetSource(configPath: configPath, environment: environment)
        let paths = RunningDaemon.paths(environment: environment, settings: source.settings)
        let directory = paths.output
        let path = directory + "/" + instance + ".json"
        // A name the config lacks is an error, not a removed widget's leftover record, nor the daemon's fault. With
        // no config to check against, an existing record still shows (a bar started before the config moved).
        switch WidgetNameCheck(instance, in: source) {
        case .known:
            break
        case .unchecked(let problem) where !FileManager.default.fileExists(atPath: path):
            console.err("widgetd: error: \(problem)")
            return ExitCode.failure
        case .unchecked:
            break
        case .unknown(let problem):
            console.err("widgetd: error: \(problem)")
            return ExitCode.failure
        }
        let forwarder = ClickForwarder(instance: instance, paths: paths.control)
        guard follow else {
            if let click = ClickForwarder.click(environment: environment) {
                forwardFirst(click, with: forwarder, console: console)
            }
            // A sampled widget's record is written while someone follows it: followed until it is read.
            let following = DaemonSubscription.follow([instance], socketPath: paths.control.updates)
            let now = Date()
            let read = readRecord(path)
            withExtendedLifetime(following) {}
            guard let record = read else {
                let daemon = DaemonState.running(in: paths.control)
                let reason =
                    if LockFile.holder(of: paths.control.lock) == nil {
                        "the daemon is not running"
                    } else if let daemon, daemon.configErrors > 0 {
                        // Added in an edit that does not check: the daemon will not write it until the file checks.
                        "the daemon runs the previous config of \(daemon.config), which has "
                            + "\(counted(daemon.configErrors, "error")) now"
                    } else {
                        "the daemon has not written it yet"
                    }
                console.err("widgetd: error: no entry for '\(instance)' in \(directory): \(reason)")
                return ExitCode.failure
            }
            console.out(render(record, as: format, at: now))
            // An i3blocks `interval=` block says urgent by its command's exit status, 33: its lines cannot.
            if format == .i3blocks, record.content(at: now).state == .urgent { return Self.urgentExitStatus }
            return ExitCode.success
        }
        // Nothing else in this process reads standard input, so the follow loop may own (and at the end close) it.
        let clicks = ClickForwarder.readsClicks(from: STDIN_FILENO) ? FileDescriptor(owning: STDIN_FILENO) : nil
        return followEntry(
            path, in: directory, as: format, clicks: clicks, forwarder: forwarder, updates: paths.control.updates,
            console: console)
    }

    /// i3blocks' exit status for an urgent block.
    static let urgentExitStatus: Int32 = 33

    /// How long a click from i3blocks' environment may take to show before the entry is printed anyway.
    static let clickTimeout: Duration = .seconds(2)

    /// Sends the click i3blocks started this command for and waits until the daemon has written its result, so the
    /// entry printed next already shows it. A click that fails is reported on stderr and the entry printed anyway:
    /// the bar should keep showing the widget.
    private static func forwardFirst(_ click: ClickForwarder.Click, with forwarder: ClickForwarder, console: Console) {
        do {
            try forwarder.sendAndWait(click, timeout: clickTimeout)
        } catch {
            console.err("widgetd: warning: click on '\(forwarder.instance)' not confirmed: \(error)")
        }
    }

    /// The entry at `now` of the record at `path`, rendered as `format`, without its final newline; nil when there is
    /// no record.
    static func render(_ path: String, as format: OutputFormat, at now: Date = Date()) -> String? {
        readRecord(path).map { render($0, as: format, at: now) }
    }

    static func readRecord(_ path: String) -> InstanceRecord? {
        InstanceRecord.read(from: path)
    }

    static func render(_ record: InstanceRecord, as format: OutputFormat, at now: Date) -> String {
        var text = record.rendered(as: format, at: now)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Prints the entry, then a line each time it changes, and forwards the clicks that arrive on `clicks` (a persist
    /// block's standard input) meanwhile.
    ///
    /// The record holds the whole timeline, so this sleeps on a wall-clock timer until its next entry (or dynamic
    /// date tick) is due, as the daemon does, and re-reads the record when inotify says the daemon replaced it: no
    /// polling, and no dependence on which bar files the instance writes. The watch is on the record file itself
    /// (`RecordWatch`), so other widgets' files changing in the same directory never wake it. One `poll` waits for
    /// all of them and for the end (`ReaderLifetime`: the reader closed or the parent bar exited), so a click never
    /// waits for an entry or the other way round. When `clicks` ends (end of file, `/dev/null`) or fails, it is
    /// dropped from the poll and the entries go on alone: a descriptor at end of file stays readable, and polling it
    /// further would spin. The end is quiet: status 0 and no message, as a bar's child that was told to go.
    /// How long a followed record may be gone before the follower prints an empty line.
    static let goneGrace: TimeInterval = 2

    private static func followEntry(
        _ path: String, in directory: String, as format: OutputFormat, clicks: FileDescriptor?,
        forwarder: ClickForwarder, updates: String, console: Console
    ) -> Int32 {
        guard let lifetime = ReaderLifetime() else { return ExitCode.success }
        let watcher: Inotify
        var timer: FollowTurn.Timer
        var recordWatch: RecordWatch
        // The widget's record kept current for as long as this runs (a sampled widget's is written only then).
        let following: DaemonSubscription
        do {
            try PrivateDirectory.make(directory)
            watcher = try Inotify()
            recordWatch = try RecordWatch(record: path, in: directory, on: watcher)
            timer = try FollowTurn.Timer()
            following = try DaemonSubscription.following([forwarder.instance], socketPath: updates)
        } catch {
            console.err("widgetd: error: cannot watch \(directory): \(error)")
            return ExitCode.failure
        }
        var clicks = clicks
        var lines = ClickForwarder.LineSplitter()
        var record = readRecord(path)
        var last: String?
        // When the record was deleted: past `goneGrace` with none back (the widget was removed from the config), the
        // bar is given an empty line, not the removed widget's last text for ever. A changed widget's files are
        // written again at once, and the daemon puts back a deleted one within a second, so neither blanks the bar.
        var goneAt: Date?
        while true {
            let now = Date()
            if let since = goneAt, now.timeIntervalSince(since) >= Self.goneGrace {
                goneAt = nil
                record = nil
                // An empty entry in the format the bar reads: a JSON one for i3blocks' `format=json` and waybar, which
                // take an empty line for a closed pipe and keep the last text.
                let rendered = Renderer.render(
                    EntryContent(text: ""), family: .systemSmall, format: format, instance: forwarder.instance)
                // One line, as an i3blocks persist block reads its full text (below).
                let empty = String(rendered.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
                if last != empty {
                    guard lifetime.write(Array((empty + "\n").utf8)) else { return ExitCode.success }
                    last = empty
                }
            }
            if let record {
                var rendered = render(record, as: format, at: now)
                // An i3blocks persist block (raw, as 1.4 reads it) takes every line as a new full text: its short
                // text and colour lines would show as entries of their own. The full text alone, then.
                if format == .i3blocks,
                    let firstLine = rendered.split(separator: "\n", omittingEmptySubsequences: false).first
                {
                    rendered = String(firstLine)
                }
                if rendered != last {
                    guard lifetime.write(Array((rendered + "\n").utf8)) else { return ExitCode.success }
                    last = rendered
                }
            }
            let nextChange = record?.nextChange(after: now)
            let blankAt = goneAt?.addingTimeInterval(Self.goneGrace)
            let turn = FollowTurn.wait(
                until: [nextChange, blankAt].compactMap { $0 }.min(), timer: &timer,
                forReadable: [watcher.fileDescriptor] + (clicks.map { [$0.rawValue] } ?? [])
                    + (following.descriptor.map { [$0] } ?? []),
                lifetime: lifetime, console: console)
            guard case .ready(let ready) = turn else { return turn.exitCode }
            // The daemon's answers say nothing the record does not: taken in only to follow the connection.
            if let descriptor = following.descriptor, ready.contains(descriptor) { _ = following.take() }
            if let input = clicks, ready.contains(input.rawValue),
                !forwardClicks(from: input, lines: &lines, with: forwarder, console: console)
            {
                clicks = nil
            }
            if ready.contains(watcher.fileDescriptor), recordWatch.changed(watcher.readEvents()) {
                if let fresh = readRecord(path) {
                    record = fresh
                    goneAt = nil
                } else if access(path, F_OK) != 0 {
                    goneAt = goneAt ?? Date()
                }
            }
        }
    }

    /// Reads what is waiting on `input` and sends each complete line's click; false once `input` has ended (end of
    /// file or an error), so the caller stops polling it.
    private static func forwardClicks(
        from input: FileDescriptor, lines: inout ClickForwarder.LineSplitter, with forwarder: ClickForwarder,
        console: Console
    ) -> Bool {
        let bytes: [UInt8]
        do {
            bytes = try input.read(upTo: 4096)
        } catch {
            // EAGAIN: someone else set the descriptor non-blocking and took the bytes first; wait for more.
            guard error.errno == EAGAIN else {
                console.err("widgetd: warning: no more clicks from standard input: \(error)")
                return false
            }
            return true
        }
        guard !bytes.isEmpty else { return false }
        for line in lines.lines(adding: bytes) {
            guard let click = ClickForwarder.click(line: line) else { continue }
            do {
                try forwarder.send(click)
            } catch {
                console.err("widgetd: warning: click on '\(forwarder.instance)' dropped: \(error)")
            }
        }
        return true
    }
}

/// A watch on the output directory that survives the directory being deleted or moved away and made again: it then
/// watches the nearest ancestor that still exists until the directory is back (the daemon makes the whole path
/// again, one directory at a time), and the directory again once it is.
struct DirectoryWatch {
    static let mask: Inotify.Mask = [.movedTo, .closeWrite, .create, .deleteSelf, .moveSelf]

    let path: String
    let watcher: Inotify
    private var current: Inotify.Watch?
    private var ancestor: Inotify.Watch?

    init(_ path: String, on watcher: Inotify) throws(SystemError) {
        self.path = path
        self.watcher = watcher
        current = try watcher.watch(directory: path, mask: Self.mask)
    }

    /// A watch on `path`, or while it is missing on its deepest existing ancestor, without failing.
    static func resolving(_ path: String, on watcher: Inotify) -> DirectoryWatch {
        var watch = DirectoryWatch(path: path, watcher: watcher)
        watch.resolve()
        return watch
    }

    private init(path: String, watcher: Inotify) {
        self.path = path
        self.watcher = watcher
    }

    /// Ends both watches, for a caller that now watches something else.
    mutating func stop() {
        for watch in [current, ancestor].compactMap({ $0 }) { try? watcher.unwatch(watch) }
        current = nil
        ancestor = nil
    }

    /// Takes in a batch of events; true when the directory was replaced and is watched again (re-read everything).
    mutating func follow(_ events: [Inotify.Event]) -> Bool {
        let gone = events.contains { event in
            event.watch != nil && event.watch == current
                && !event.mask.intersection([.deleteSelf, .moveSelf, .ignored]).isEmpty
        }
        // Anything made in the watched ancestor may be the next step down the path.
        let grew = events.contains { $0.watch != nil && $0.watch == ancestor }
        guard gone || grew || events.contains(where: { $0.mask.contains(.queueOverflow) }) else { return false }
        // A moved directory is still watched where it went.
        if gone, let old = current { try? watcher.unwatch(old) }
        if let watch = ancestor { try? watcher.unwatch(watch) }
        ancestor = nil
        resolve()
        return true
    }

    /// Watches the directory if it exists, else the deepest ancestor that does. A level made while that ancestor was
    /// being found raised no event anyone saw, so the search runs again until nothing deeper exists (bounded: the
    /// path has only so many levels).
    private mutating func resolve() {
        for _ in 0..<64 {
            current = try? watcher.watch(directory: path, mask: Self.mask)
            if current != nil { return }
            var directory = Path.directory(of: path)
            var below = path
            while ancestor == nil, !directory.isEmpty {
                ancestor = try? watcher.watch(directory: directory, mask: [.create, .movedTo])
                if ancestor != nil || directory == "/" { break }
                below = directory
                directory = Path.directory(of: directory)
            }
            guard let watch = ancestor, access(below, F_OK) == 0 else { return }
            try? watcher.unwatch(watch)
            ancestor = nil
        }
    }
}
