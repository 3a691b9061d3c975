import Basics
import Formats
import FoundationEssentials
import Glibc
import Kind
import Synchronization
import System
import Timelines

/// An `interval: persist` command (i3blocks' persistent block): started once and kept running on a thread of its
/// own that sleeps in `poll()` on its output. Every line it prints (every JSON object, with `format: json`) is an
/// update at once; clicks go to its standard input. An `interval: repeat` command runs the same way, but its whole
/// output is read when it exits, as a one-shot run's is, and the next run starts at once. When it exits it is started again after a pause that doubles
/// from 1 s up to a minute, and the widget shows its last entry, marked stale, meanwhile. A script that prints
/// faster than `maximumUpdatesPerSecond` is slowed down: the latest line wins, the others are skipped and logged.
/// Its output is read at most `maximumReadsPerSecond` times a second, so one that prints flat out without giving a
/// line to show (no newline, or a repeat run that never exits) waits on its full pipe rather than costing a core.
final class PersistentCommand: ProviderSession, @unchecked Sendable {
    static let maximumUpdatesPerSecond = 20
    /// Reads of the output in one second, at most (`ReadBudget`): well above what a script printing 20 lines a second
    /// needs, far below a core's worth.
    static let maximumReadsPerSecond = 50
    static let lineCap = CommandRunner.outputCap
    /// `runOnce`'s answer for a command that exited with status 0.
    static let cleanExit = "exited"

    private let argv: [String]
    private let environment: [String: String]
    private let printsJSON: Bool
    /// `interval: repeat`, read as i3blocks reads it: a run's whole output, when it exits, is its entry (`repeat`),
    /// and a clean or urgent exit starts the next run at once (`run`). Nil for `persist`, whose every line is one.
    private let readWhole: (@Sendable (CommandResult, Date) throws -> Timeline)?
    private let parse: @Sendable (String, Date) throws -> Timeline
    private let updates: @Sendable (SessionUpdate) -> Void
    private let stopWake: Wakeup
    /// The daemon's clock: a restart's pause, and whether a run lasted long enough not to count as a crash.
    private let clock: any SessionClock
    /// The running child's process group and its standard input; -1 when none runs.
    private let child = Mutex<(pid: pid_t, input: Int32, stopped: Bool)>((-1, -1, false))
    /// Whether the log was told that a repeat run printed past the cap: once per widget, not once per run. Touched only
    /// by the command's thread.
    private var toldOfTruncation = false

    init(
        argv: [String], environment: [String: String], printsJSON: Bool,
        readWhole: (@Sendable (CommandResult, Date) throws -> Timeline)? = nil,
        parse: @escaping @Sendable (String, Date) throws -> Timeline,
        clock: any SessionClock = WallSessionClock(),
        updates: @escaping @Sendable (SessionUpdate) -> Void
    ) throws {
        self.clock = clock
        self.argv = argv
        self.environment = environment
        self.printsJSON = printsJSON
        self.readWhole = readWhole
        self.parse = parse
        self.updates = updates
        stopWake = try Wakeup()
        try DetachedThread.start(name: "persist \(argv.first ?? "")") { [self] in run() }
    }

    /// Writes the click to the command's standard input as i3blocks 1.5 does: with `format: json` the block's
    /// properties and the click's as one JSON object per line, else the button number on a line of its own. Returns
    /// why the command did not get it, if it did not.
    func deliver(_ invocation: IntentInvocation) -> String? {
        guard let click = invocation.click else { return nil }
        let line = printsJSON ? Self.clickJSON(click, environment: environment) : "\(click.button.number)"
        let bytes = Array((line + "\n").utf8)
        return child.withLock { child in
            guard child.input >= 0 else { return "its persistent command is not running; it is started again soon" }
            // Non-blocking: a script that never reads its input must not stall the daemon; a full pipe drops the click.
            let written = bytes.withUnsafeBytes { write(child.input, $0.baseAddress, $0.count) }
            if written == bytes.count { return nil }
            switch written < 0 ? errno : EAGAIN {
            case EPIPE: return "its persistent command closed its standard input, so it reads no clicks"
            case EAGAIN: return "its persistent command has not read the clicks before (its standard input is full)"
            case let error:
                return "\(SystemError(call: "write", subject: "its persistent command's input", errno: error))"
            }
        }
    }

    /// Ends the command's whole process group (SIGTERM, as i3blocks does on exit; SIGKILL a second later if it
    /// lingers) and the thread; no update follows.
    func stop() {
        let pid = child.withLock { child in
            child.stopped = true
            return child.pid
        }
        if pid > 0 { kill(-pid, SIGTERM) }
        stopWake.signal()
    }

    private var isStopped: Bool { child.withLock { $0.stopped } }

    private func run() {
        var backoff = RestartBackoff()
        while !isStopped {
            let started = clock.now
            let reason: String
            do {
                reason = try runOnce()
            } catch {
                reason = "\(error)"
            }
            if isStopped { return }
            if readWhole != nil, reason == Self.cleanExit {
                // `interval: repeat` ends a run by exiting: the entry stays as it is, not stale, and the next run
                // starts now, or a second after this one started, so a script that exits at once does not spin.
                backoff.reset()
                if waitForStop(until: started.addingTimeInterval(RestartBackoff.first)) { return }
                continue
            }
            // A command that ran a good while is not crash-looping: start again soon.
            let now = clock.now
            let delay = backoff.ended(startedAt: started, now: now)
            updates(.stopped(reason: "\(reason); starting it again in \(CommandRunner.format(delay))"))
            if waitForStop(until: now.addingTimeInterval(delay)) { return }
            backoff.lengthen()
        }
    }

    /// Runs the command until it exits; returns why it ended.
    private func runOnce() throws -> String {
        var process = try PersistentProcess.spawn(argv, environment: environment)
        let pid = process.pid
        let stoppedBeforeStart = child.withLock { child in
            child.pid = pid
            child.input = process.input
            return child.stopped
        }
        defer {
            child.withLock { child in
                child.pid = -1
                child.input = -1
            }
            RunningCommands.ended(pid)
            process.closeAll()
        }
        if stoppedBeforeStart { kill(-pid, SIGTERM) }

        var lines = CappedLines(cap: Self.lineCap)
        var throttle = UpdateThrottle(perSecond: Self.maximumUpdatesPerSecond)
        var budget = ReadBudget(perSecond: Self.maximumReadsPerSecond)
        var lastNote: Date?
        var skippedSinceNote = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        // A repeat run's output, kept whole for its exit (capped as a one-shot run's is).
        var whole: [UInt8] = []
        var wholeTruncated = false
        func take(_ count: Int) {
            if readWhole != nil {
                let room = max(0, CommandRunner.outputCap - whole.count)
                whole += buffer[0..<min(count, room)]
                if count > room, !wholeTruncated, !toldOfTruncation {
                    toldOfTruncation = true
                    updates(
                        .note(
                            "printed more than \(CommandRunner.outputCap / 1024) KiB in one run: the rest is dropped, "
                                + "and read at most \(Self.maximumReadsPerSecond) times a second"))
                }
                wholeTruncated = wholeTruncated || count > room
                return
            }
            let taken = buffer.withUnsafeBufferPointer { lines.feed(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            for line in taken {
                if let text = throttle.offer(String(decoding: line.bytes, as: UTF8.self), now: Date()) { show(text) }
                // One update is capped as a one-shot run's output is: the rest of the line is dropped.
                if line.cut { updates(.note("a line longer than \(Self.lineCap / 1024) KiB was cut")) }
            }
        }
        while true {
            let now = Date()
            let resumes = budget.resumes(after: now)
            // While a line waits for the next second, wake then to show it; while the reads are spent, to read again.
            let wake = [throttle.nextRelease, resumes].compactMap { $0 }.min()
            let timeout = wake.map { max(0, Int32(($0.timeIntervalSince(now) * 1000).rounded(.up))) } ?? -1
            // While a line is held, or this second's reads are spent, the output is not read: a script printing as fast
            // as it can (`yes`, or with no newline) then blocks on its full pipe until the second is over, instead of
            // costing the daemon a core to read what it skips. (`poll` ignores a negative descriptor.)
            let reading = throttle.nextRelease == nil && resumes == nil
            var descriptors = [
                pollfd(fd: reading ? process.output : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopWake.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: process.exitFile, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 3, timeout)
            if ready < 0 && errno != EINTR { break }
            if descriptors[1].revents != 0 { break }
            if descriptors[2].revents != 0 {
                // It exited. What it printed before is in the pipe and read now, without waiting: a child it left in the
                // background may hold the pipe open for ever, and goes with its group below.
                _ = fcntl(process.output, F_SETFL, fcntl(process.output, F_GETFL) | O_NONBLOCK)
                for _ in 0..<PersistentProcess.readsAfterExit {
                    let count = retryingInterrupted { read(process.output, &buffer, buffer.count) }
                    if count <= 0 { break }
                    take(count)
                }
                break
            }
            if let (line, skipped) = throttle.release(now: Date()) {
                skippedSinceNote += skipped
                // Said at once, then at most once a minute: a script that floods for hours fills no log.
                if skippedSinceNote > 0, lastNote.map({ Date().timeIntervalSince($0) >= 60 }) ?? true {
                    updates(
                        .note(
                            "printed faster than \(Self.maximumUpdatesPerSecond) lines a second: \(skippedSinceNote) "
                                + "lines skipped, the newest shown"))
                    lastNote = Date()
                    skippedSinceNote = 0
                }
                show(line)
            }
            guard descriptors[0].revents != 0 else { continue }
            budget.spend(now: Date())
            let count = retryingInterrupted { read(process.output, &buffer, buffer.count) }
            if count < 0 && errno == EAGAIN { continue }
            if count <= 0 { break }
            take(count)
        }
        if let (line, _) = throttle.release(now: .distantFuture) { show(line) }
        if isStopped {
            kill(-pid, SIGTERM)
        }
        let status = process.waitForExit(killingAfter: isStopped ? 1 : nil)
        if isStopped { return "stopped" }
        if let readWhole {
            // i3blocks' exit statuses: 0, or 33 for urgent, show the output; any other is a failure.
            guard status == 0 || status == ExecOutput.urgentExitStatus else { return "exited with status \(status)" }
            let result = CommandResult(output: whole, truncated: wholeTruncated, exitStatus: status, errorOutput: "")
            do {
                updates(.timeline(try readWhole(result, Date())))
            } catch {
                return "\(error)"
            }
            return Self.cleanExit
        }
        return status == 0 ? Self.cleanExit : "exited with status \(status)"
    }

    private func show(_ line: String) {
        let text = TextSanitizer.repair(bytes: Array(line.utf8))
        if printsJSON && text.allSatisfy({ $0.isWhitespace }) { return }
        do {
            updates(.timeline(try parse(text, Date())))
        } catch {
            updates(.unusable(reason: "\(error)"))
        }
    }

    /// Sleeps until `deadline` on the daemon's clock or until `stop()` is called; true when stopped.
    private func waitForStop(until deadline: Date) -> Bool {
        while !isStopped {
            if !clock.wait(until: deadline, orUntilReadable: stopWake.fileDescriptor) { return isStopped }
        }
        return true
    }

    /// i3blocks 1.5's JSON click line: the block's properties (its environment, as i3blocks keeps both in one map)
    /// and the click's keys.
    static func clickJSON(_ click: ClickLocation, environment: [String: String]) -> String {
        var object: [String: JSONValue] = [
            "name": JSONValue(environment["BLOCK_NAME"] ?? ""),
            "instance": JSONValue(environment["BLOCK_INSTANCE"] ?? ""),
            "button": JSONValue(click.button.number), "modifiers": JSONValue(click.modifiers),
        ]
        let numbers: [(String, Int?)] = [
            ("x", click.x), ("y", click.y), ("relative_x", click.relativeX), ("relative_y", click.relativeY),
            ("width", click.width), ("height", click.height),
        ]
        for (key, value) in numbers { if let value { object[key] = JSONValue(value) } }
        return JSONValue.object(object).jsonText
    }
}

/// At most `perSecond` updates in any one-second window; past that, only the latest line is kept, and shown when the
/// window ends. A flooding script then costs the daemon one update a second more, never a backlog.
struct UpdateThrottle {
    let perSecond: Int
    private var windowStart = Date.distantPast
    private var shown = 0
    private var held: String?
    private var skipped = 0

    init(perSecond: Int) {
        self.perSecond = perSecond
    }

    /// When a held line is due.
    var nextRelease: Date? { held == nil ? nil : windowStart.addingTimeInterval(1) }

    /// A new line: returned to show now, or held (replacing any held one) until the window ends.
    mutating func offer(_ line: String, now: Date) -> String? {
        if now.timeIntervalSince(windowStart) >= 1, held == nil {
            windowStart = now
            shown = 0
        }
        if held == nil, shown < perSecond {
            shown += 1
            return line
        }
        if held != nil { skipped += 1 }
        held = line
        return nil
    }

    /// The held line once its window is over, and how many lines it replaced.
    mutating func release(now: Date) -> (line: String, skipped: Int)? {
        guard let line = held, now >= windowStart.addingTimeInterval(1) else { return nil }
        held = nil
        defer { skipped = 0 }
        windowStart = now
        shown = 1
        return (line, skipped)
    }
}
