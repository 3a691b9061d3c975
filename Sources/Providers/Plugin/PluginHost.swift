import Basics
import Formats
import FoundationEssentials
import Glibc
import Kind
import Synchronization
import System

/// One long-lived plugin process serving every widget of its kind (docs/PLUGINS.md).
///
/// Requests are written to its standard input with ids and answered in any order, so several instances' reloads are
/// in flight at once. A thread of its own per plugin sleeps in `poll()` on the plugin's output and on the earliest
/// reply deadline; results reach the caller through a continuation, so neither the daemon's loop nor another kind
/// ever waits for a plugin. The process is spawned through the exec kind's layer (`PersistentProcess`: own process
/// group, no inherited descriptors, stderr a pipe whose last lines are kept), started on the first request, and
/// started again after a crash, or a hang (`unansweredLimit`), with a pause that doubles from 1 s to a minute, on the
/// daemon's clock.
public final class PluginHost: @unchecked Sendable {
    /// A longer line is skipped (without being buffered) and counted as a misbehaviour.
    public static let lineCap = 1 << 20
    /// More lines than this in one second, replies aside, are dropped, and counted.
    static let linesPerSecond = 500
    /// Misbehaviours (garbage, oversized or late lines, floods) within `strikeWindow` before the plugin is restarted.
    static let strikeLimit = 50
    static let strikeWindow: TimeInterval = 10
    /// Requests in a row that pass their deadlines with no reply from the plugin (late or not, to any request) since
    /// they were sent, before it is taken as hung and restarted. One slow answer is the widget's timeout; a plugin
    /// that answers, if slowly, is not hung, and starting it again would not make it quicker.
    static let unansweredLimit = 3
    /// Queued requests a plugin that does not read its input may hold before new ones fail at once.
    static let outboxCap = 4 << 20
    /// Reads of its output in any second, at most: twice the lines a plugin may send, were each written on its own.
    static let outputReadsPerSecond = 1000

    public let name: String
    public let argv: [String]

    let state = Mutex(State())
    let listener = Mutex<PluginListener?>(nil)
    let statusDirectory = Mutex<String?>(nil)
    /// The daemon's clock (`listen`): a restart's pause and a request's deadline pass on it, so they pass when a test
    /// moves a daemon's clock. Rates (a flood, strikes, the read budgets) stay on the wall clock: they bound what the
    /// plugin costs in real time.
    let clock = Mutex<any SessionClock>(WallSessionClock())
    /// The kind name the plugin declared (for events); set by `PluginKind`.
    let kindName: String

    public init(name: String, argv: [String], kind: String) {
        self.name = name
        self.argv = argv
        kindName = kind
    }

    /// Where pushed reloads and log lines go, the directory for the plugin's status file (`widgetd plugins`), and the
    /// daemon's clock.
    public func listen(
        statusDirectory directory: String?, clock: any SessionClock = WallSessionClock(),
        _ handler: @escaping @Sendable (PluginEvent) -> Void
    ) {
        let boxed = PluginListener(handler)
        listener.withLock { $0 = boxed }
        statusDirectory.withLock { $0 = directory }
        self.clock.withLock { $0 = clock }
        writeStatus()
    }

    /// Sends `message` (a request without its id) and waits for the reply with the same id, at most `timeout`.
    func request(
        _ message: [String: JSONValue], timeout: TimeInterval
    ) async throws(PluginProtocolError) -> [String: JSONValue] {
        let data: Data = try await withCheckedContinuation { continuation in
            let once = Mutex(false)
            send(message, timeout: timeout) { result in
                guard
                    once.withLock({ done in
                        defer { done = true }; return !done
                    })
                else { return }
                continuation.resume(returning: result)
            }
        }.get()
        guard let object = (try? JSONValue.parse(data))?.object else {
            throw PluginProtocolError("the reply is not a JSON object")
        }
        if let error = object["error"] {
            throw PluginProtocolError("\(name): \(error)")
        }
        return object
    }

    /// Ends the plugin's process group; pending requests fail. Nothing restarts it.
    public func stop() {
        let (pid, wake) = state.withLock { state in
            state.stopped = true
            return (state.pid, state.wake)
        }
        if pid > 0 { kill(-pid, SIGTERM) }
        wake?.signal()
    }

    // MARK: - Sending

    private func send(
        _ message: [String: JSONValue], timeout: TimeInterval,
        finish: @escaping @Sendable (Result<Data, PluginProtocolError>) -> Void
    ) {
        var started = false
        let now = self.now
        let failure: PluginProtocolError? = state.withLock { state in
            if state.stopped { return PluginProtocolError("\(name) is stopped") }
            if let retryAt = state.retryAt, retryAt > now {
                let again =
                    Self.missingFile(in: argv) == nil
                    ? "starting it again in \(Int(retryAt.timeIntervalSince(now).rounded(.up))) s"
                    : "not started again until it is back"
                return PluginProtocolError("\(name) \(state.lastError ?? "crashed"); \(again)")
            }
            if state.pid < 0 {
                do {
                    try start(&state)
                    started = true
                } catch {
                    // Tried again at each request after the pause, which doubles: a plugin that cannot start costs a
                    // spawn a minute at most, however often its widgets reload.
                    let why = Self.missingFile(in: argv).map(Self.gone) ?? "\(error)"
                    state.lastError = "cannot start: \(why)"
                    state.retryAt = now.addingTimeInterval(state.backoff.delay)
                    state.backoff.lengthen()
                    return PluginProtocolError("\(name): cannot start: \(why)")
                }
            }
            guard state.outbox.count < Self.outboxCap else {
                return PluginProtocolError("\(name) does not read its requests")
            }
            let id = state.nextID
            state.nextID += 1
            var object = message
            object["id"] = JSONValue(id)
            var line = JSONValue.object(object).serialized()
            line.append(UInt8(ascii: "\n"))
            state.pending[id] = Pending(sent: now, deadline: now.addingTimeInterval(timeout), finish: finish)
            state.outbox.append(contentsOf: line)
            flush(&state)
            // The reader thread re-arms its poll for this deadline, and for the outbox when the pipe was full.
            state.wake?.signal()
            return nil
        }
        if let failure {
            finish(.failure(failure))
        }
        if failure != nil || started { writeStatus() }
    }

    /// Writes as much of the outbox as the pipe takes now (the pipe is non-blocking). A write that fails for any
    /// reason but a full pipe ends the run (`State.inputClosed`): what is queued can never be delivered.
    private func flush(_ state: inout State) {
        while !state.outbox.isEmpty, state.input >= 0, !state.inputClosed {
            let written = state.outbox.withUnsafeBytes { write(state.input, $0.baseAddress, $0.count) }
            if written > 0 {
                state.outbox.removeFirst(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                if written < 0 && errno != EAGAIN {
                    state.inputClosed = true
                    state.outbox = []
                }
                break
            }
        }
    }

    private func start(_ state: inout State) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["WIDGETD_PLUGIN_PROTOCOL"] = String(PluginDeclaration.protocolVersion)
        var process = try PersistentProcess.spawn(argv, environment: environment, keepingErrors: true)
        let wake: Wakeup
        do {
            wake = try Wakeup()
        } catch {
            Self.abandon(&process)
            throw error
        }
        do {
            try DetachedThread.start(name: "plugin \(name)") { [self, process] in serve(process, wake: wake) }
        } catch {
            // No reader thread (the system's thread limit): the process is ended, and the start fails like a spawn.
            Self.abandon(&process)
            throw error
        }
        state.pid = process.pid
        state.input = process.input
        state.wake = wake
        state.hello = nil
        state.outbox = []
        state.inputClosed = false
        state.unansweredInARow = 0
        note("info", "started (pid \(process.pid))")
    }

    /// Ends a process that started but cannot be served, and reaps it.
    private static func abandon(_ process: inout PersistentProcess) {
        kill(-process.pid, SIGKILL)
        _ = process.waitForExit(killingAfter: nil)
        process.closeAll()
        RunningCommands.ended(process.pid)
    }

    // MARK: - Reading

    /// The reader thread of one run of the plugin: reads replies and messages until the plugin exits or is
    /// restarted, fails requests whose deadline passed, then reaps it and, after a crash, waits out the backoff and
    /// asks for every widget of the kind to reload. Its exit is seen on its pidfd, not at its output's end, which a
    /// child it left in the background may hold open for ever.
    private func serve(_ process: PersistentProcess, wake: Wakeup) {
        var process = process
        let clock = self.clock.withLock { $0 }
        let started = clock.now
        var reader = PluginLineReader(cap: Self.lineCap)
        var strikes: [Date] = []
        var linesThisSecond = (second: Date.distantPast, count: 0, dropped: 0)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var reason = "exited"
        // Once it has exited, what it printed before is read without waiting, up to a pipe's worth.
        var exited = false
        var readsAfterExit = 0
        var errors = StandardErrorTail()
        var errorsOpen = process.errors >= 0
        // A plugin that writes flat out (a line with no end, a loop on its standard error) waits on its full pipe
        // past these, instead of costing its host thread a core.
        var outputBudget = ReadBudget(perSecond: Self.outputReadsPerSecond)
        var errorBudget = ReadBudget(perSecond: StandardErrorTail.readsPerSecond)
        func strike(_ what: String) -> Bool {
            let now = Date()
            strikes.removeAll { now.timeIntervalSince($0) > Self.strikeWindow }
            strikes.append(now)
            // The first ten in a window are each said; past that every tenth, so a babbling plugin fills no log.
            if strikes.count <= 10 || strikes.count % 10 == 0 { note("warning", what) }
            return strikes.count >= Self.strikeLimit
        }
        loop: while true {
            let (deadline, wantsWrite, stopped, inputClosed) = state.withLock { state in
                (state.pending.values.map(\.deadline).min(), !state.outbox.isEmpty, state.stopped, state.inputClosed)
            }
            if stopped { reason = "stopped"; break }
            if inputClosed { reason = "closed its standard input; stopped it"; break }
            let now = Date()
            let outputResumes = outputBudget.resumes(after: now)
            let errorsResume = errorBudget.resumes(after: now)
            // The budgets resume on the wall clock, a request's deadline passes on the daemon's.
            let timeouts =
                [outputResumes, errorsResume].compactMap { $0 }.map(WallSessionClock().pollTimeout(until:))
                + [deadline].compactMap { $0 }.map(clock.pollTimeout(until:))
            var timeout = timeouts.min() ?? -1
            if exited { timeout = 0 }
            var descriptors = [
                pollfd(fd: outputResumes == nil ? process.output : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wantsWrite ? process.input : -1, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: exited ? -1 : process.exitFile, events: Int16(POLLIN), revents: 0),
                pollfd(
                    fd: errorsOpen && errorsResume == nil ? process.errors : -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 5, timeout)
            if ready < 0 && errno != EINTR { reason = "poll failed"; break }
            if descriptors[1].revents != 0 { _ = wake.drain() }
            if descriptors[2].revents != 0 { state.withLock { flush(&$0) } }
            if descriptors[3].revents != 0 { exited = true }
            if descriptors[4].revents != 0 {
                _ = errors.read(from: process.errors)
                errorBudget.spend(now: Date())
                // Its end (POLLHUP with nothing left) would wake every poll: not watched from then on.
                if descriptors[4].revents & Int16(POLLIN) == 0 { errorsOpen = false }
            }
            if expireRequests() >= Self.unansweredLimit {
                reason = "restarted: did not answer in time \(Self.unansweredLimit) times in a row"
                break
            }
            guard descriptors[0].revents != 0, !exited || readsAfterExit < PersistentProcess.readsAfterExit else {
                if exited { break }
                continue
            }
            if exited { readsAfterExit += 1 }
            let count = retryingInterrupted { read(process.output, &buffer, buffer.count) }
            if count < 0 && errno == EAGAIN { continue }
            if count <= 0 { break }
            outputBudget.spend(now: Date())
            let items = buffer.withUnsafeBufferPointer { reader.feed(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            for item in items {
                let message: PluginMessage
                switch item {
                case .oversized(let id): message = .oversized(replyTo: id)
                case .line(let bytes): message = PluginMessage(bytes)
                }
                let problem: String?
                // A reply answers a request the daemon made, so its count is the daemon's to bound: it is never
                // dropped with a flood of pushed lines, or a plugin that also logs a lot would look hung.
                if case .reply(let id, let bytes) = message {
                    problem = answer(id, with: bytes)
                } else if case .oversized(replyTo: let id?) = message {
                    problem = answerTooLong(id)
                } else {
                    let now = Date()
                    if now.timeIntervalSince(linesThisSecond.second) >= 1 {
                        if linesThisSecond.dropped > 0 {
                            note("warning", "flooded: \(linesThisSecond.dropped) lines in a second dropped")
                        }
                        linesThisSecond = (now, 0, 0)
                    }
                    linesThisSecond.count += 1
                    if linesThisSecond.count > Self.linesPerSecond {
                        linesThisSecond.dropped += 1
                        if linesThisSecond.dropped % Self.linesPerSecond == 1, strike("floods its output") {
                            reason = "restarted: it flooded its output"
                            break loop
                        }
                        continue
                    }
                    problem = handle(message)
                }
                if let problem, strike(problem) {
                    reason = "restarted: too many bad messages (last: \(problem))"
                    break loop
                }
            }
        }
        // No request is written to the input from here on: its descriptor is closed below, and its number may be
        // reused by any file the daemon opens next.
        let stopped = state.withLock { state in
            state.input = -1
            return state.stopped
        }
        kill(-process.pid, SIGTERM)
        // What it left running in its group is ended with it.
        let status = process.waitForExit(killingAfter: 1)
        errors.drain(from: process.errors)
        process.closeAll()
        RunningCommands.ended(process.pid)
        if reason == "exited" {
            // It exited, or its output ended and it lived on until the SIGTERM above (128 + 15).
            reason =
                switch status {
                case 0: "exited"
                case 128 + SIGTERM where !exited: "closed its output; stopped it"
                default: "exited with status \(status)"
                }
        }
        let standardError = errors.lines
        if !stopped { reason = StandardErrorTail.described(reason, lines: standardError) }
        let missing = stopped ? nil : Self.missingFile(in: argv)
        if let missing { reason += "; " + Self.gone(missing) }
        let failed = state.withLock { state in
            defer { state.pending = [:] }
            state.pid = -1
            state.input = -1
            state.outbox = []
            if !stopped {
                let now = clock.now
                let delay = state.backoff.ended(startedAt: started, now: now)
                state.lastError = reason
                state.lastStandardError = standardError
                state.restarts += 1
                state.retryAt = now.addingTimeInterval(delay)
            }
            return Array(state.pending.values)
        }
        for pending in failed { pending.finish(.failure(PluginProtocolError("\(name) \(reason)"))) }
        writeStatus()
        if stopped { return }
        let (backoff, retryAt) = state.withLock { ($0.backoff.delay, $0.retryAt ?? clock.now) }
        let again = missing == nil ? "starting it again in \(Int(backoff)) s" : "not started again until it is back"
        note("warning", "\(reason); \(again)")
        if let earlier = PluginStatus.earlierStandardError(standardError) { note("warning", earlier) }
        emit(.stopped(kind: kindName, reason: "plugin \(name) \(reason); \(again)"))
        // Waits out the pause, counted from the exit, then reloads the kind's widgets, which starts the plugin again.
        if waitForStop(wake, until: retryAt) || waitWhileFileIsGone(reported: missing, wake) { return }
        state.withLock { state in
            state.retryAt = nil
            state.backoff.lengthen()
        }
        emit(.restarting(kind: kindName))
    }
}
