import Basics
import FoundationEssentials
import Glibc
import Synchronization

/// The one session-bus connection of the process, shared by every music widget: one thread polls its socket and a
/// wake-up pipe, keeps what each MPRIS player is doing, and tells the subscribed sessions when it changes.
///
/// All of libdbus is used on this thread only (the sessions' clicks are queued to it), so the connection needs no
/// locking of libdbus's own. The thread starts with the first subscriber and runs as long as the process; with no
/// signal, no click and no timeline ending, it sleeps with no timeout.
///
/// With no bus to talk to (none yet, or it went away), the subscribers are told `noBus`, and while anyone listens the
/// thread waits for one without waking on a timer where it can: an address that names socket paths (the
/// usual `unix:path=`, and `$XDG_RUNTIME_DIR/bus` when the environment names no address) is waited for by inotify on
/// their directories (`SocketPathWatch`), and tried when a socket appears there. A socket that is there but refuses
/// (a bus starting up, or one killed that left its socket) is tried again after 1, 2, 4 … 32 s, then only when the
/// directory changes. Any other address (`unix:abstract=`, `tcp:`, …), or one inotify cannot watch, is tried again
/// after 1 s, then twice as long each time up to a minute (`RetrySchedule`, as the sound kind waits for its server).
/// With no address at all nothing can ever appear, so nothing is tried. A new subscriber tries at once.
public final class MPRISListener: Sendable {
    /// The listener of the daemon, on the session bus its environment names.
    public static let shared = MPRISListener()

    /// One session's wish to be told, until cancelled.
    public typealias Subscription = ListenerSubscription

    /// Called on the listener's thread with the bus's state; answers when it wants to be called again with nothing
    /// changed (the end of the timeline it pushed), or nil.
    public typealias Notify = @Sendable (MusicBusState) -> Date?

    private struct Subscriber {
        var notify: Notify
        var renewAt: Date?
        /// True until it was told the state once.
        var isNew = true
    }

    private enum Request {
        /// A session started: connect if not connected, and read every player again.
        case refresh
        /// A click: call `method` of the player `busName`.
        case call(method: String, busName: String)
    }

    private struct State: ListenerState {
        var subscribers = Subscribers<Subscriber>()
        var started = false
        var requests: [Request] = []
    }

    private let state = Mutex(State())
    private let wakePipe = WakePipe()

    init() {}

    /// Calls `notify` (on the listener's thread) with the bus's state at once, then at each change and when it asked
    /// to be called again. Starts the thread on first use; fails only when no thread can be started.
    public func subscribe(notify: @escaping Notify) -> Result<Subscription, DetachedThread.StartError> {
        let (id, start) = state.withLock { state in
            let id = state.subscribers.add(Subscriber(notify: notify))
            state.requests.append(.refresh)
            defer { state.started = true }
            return (id, !state.started)
        }
        if start {
            do {
                try DetachedThread.start(name: "widgetd-mpris") { self.run() }
            } catch {
                state.withLock {
                    $0.started = false
                    $0.subscribers.remove(id)
                    $0.requests.removeAll()
                }
                return .failure(error)
            }
        } else {
            wakePipe.wake()
        }
        return .success(Subscription { self.remove(id) })
    }

    /// Asks the player `busName` to run `method` (`PlayPause`, `Next`, `Previous`); its answer comes as a signal.
    public func call(_ method: String, onPlayer busName: String) {
        state.withLock { $0.requests.append(.call(method: method, busName: busName)) }
        wakePipe.wake()
    }

    private func remove(_ id: Int) {
        state.unsubscribe(id, wakePipe: wakePipe)
    }

    /// The thread: what it owns (the connection, the players, the watch for a missing bus) lives here and nowhere else.
    private func run() {
        var connection: DBusConnection?
        var players: [String: MusicPlayer] = [:]
        var problem = "not connected"
        var changed = false
        /// Where the bus will be (the environment does not change), and its sockets when inotify can wait for them.
        let expected = SessionBusAddress.expected(environment: MPRISClient.environment)
        let socketPaths = expected.flatMap(SessionBusAddress.socketPaths)
        /// While there is no connection: the watch on the sockets' directories, nil when there are no socket paths or
        /// inotify failed (then only the timer).
        var watch: SocketPathWatch?
        /// Timed attempts since the bus last answered (or, while watching, since its socket last appeared), and when
        /// the next is due while there is no connection.
        var retries = 0
        var retryAt: ContinuousClock.Instant?
        /// What every subscriber was told last: a retry that fails as the one before tells nobody again.
        var told: MusicBusState?

        /// Connects, reads every player, and on failure waits as `lost` says.
        func connect() {
            // Watching before the attempt, so that a socket made just after it fails is still heard.
            if let socketPaths, watch == nil { watch = SocketPathWatch(paths: socketPaths) }
            switch MPRISClient.connect() {
            case .success(let connected):
                connection = connected
                watch = nil
                retries = 0
                retryAt = nil
                players = MPRISClient.players(on: connected, at: Date())
            case .failure(let error):
                problem = error.description
                lost()
            }
            changed = true
        }
        /// The connection failed or went away: waits for the socket's directory to change, and on a timer only for a
        /// socket that is there and refused (bounded), or for an address inotify cannot wait for.
        func lost() {
            connection = nil
            players = [:]
            changed = true
            if let socketPaths, watch == nil { watch = SocketPathWatch(paths: socketPaths) }
            guard let delay = RetrySchedule.delay(after: retries, watch: watch, canAppear: expected != nil) else {
                retryAt = nil
                return
            }
            retries += 1
            retryAt = .now.advanced(by: .seconds(delay))
        }

        while true {
            let requests = state.withLock { state in
                defer { state.requests.removeAll() }
                return state.requests
            }
            for request in requests {
                switch request {
                case .refresh:
                    if let connection {
                        players = MPRISClient.players(on: connection, at: Date())
                        changed = true
                    } else {
                        connect()
                    }
                case .call(let method, let busName):
                    if let connection, players[busName] != nil {
                        MPRISClient.call(method, on: busName, over: connection)
                    }
                }
            }
            if connection == nil, state.withLock({ $0.subscribers.isEmpty }) {
                // Nobody listens: nothing is waited for, and the next subscriber's refresh connects.
                retryAt = nil
                watch = nil
            }
            if connection == nil, let due = retryAt, due <= .now { connect() }
            // Signals that came while a call waited for its reply are queued already: taken in before sleeping.
            if let current = connection {
                while let message = current.nextMessage() {
                    if MPRISClient.handle(message, players: &players, on: current, at: Date()) { changed = true }
                }
                if !current.isConnected {
                    problem = "the session bus closed the connection"
                    lost()
                }
            }
            let busState: MusicBusState =
                connection == nil
                ? .noBus(problem) : .players(players.values.sorted { $0.busName < $1.busName })
            tell(busState, all: changed && busState != told)
            told = busState
            changed = false

            let now = Date()
            let renewal = state.withLock { $0.subscribers.nearest(\.renewAt) }
            var milliseconds = renewal.map { Self.pollMilliseconds(max(0, $0.timeIntervalSince(now))) } ?? -1
            if connection == nil, let retryAt {
                let untilRetry = UeventListener.pollMilliseconds(ContinuousClock.now.duration(to: retryAt))
                milliseconds = milliseconds < 0 ? untilRetry : min(milliseconds, untilRetry)
            }
            let events = wakePipe.wait(
                for: connection?.descriptor ?? watch?.fileDescriptor ?? -1, milliseconds: milliseconds)
            if connection == nil, let waiting = watch, events != 0 {
                if waiting.readEvents() {
                    // A socket appeared (or its directory changed): its own attempts, at once and on the timer.
                    retries = 0
                    retryAt = nil
                    if !waiting.isWatching { watch = nil }
                    if waiting.socketExists || !waiting.isWatching { connect() }
                }
            } else if let current = connection, events != 0 {
                // A socket that only reports an error would wake this thread without end: the connection is given up
                // and the bus waited for as `lost` says.
                let failed = events & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
                if !current.readAndWrite() || (failed && events & Int16(POLLIN) == 0) {
                    problem = "the session bus closed the connection"
                    lost()
                }
            }
        }
    }

    /// Tells every subscriber the state when `all`, else only the new ones and those whose renewal is due; keeps the
    /// renewal each asks for.
    private func tell(_ busState: MusicBusState, all: Bool) {
        let now = Date()
        let due = state.withLock { state in
            state.subscribers.byID.compactMap { id, subscriber in
                all || subscriber.isNew || subscriber.renewAt.map { $0 <= now } == true
                    ? (id, subscriber.notify) : nil
            }
        }
        for (id, notify) in due {
            // Never sooner than a second from now: a renewal already due would wake the thread again at once.
            let renewAt = notify(busState).map { max($0, now.addingTimeInterval(1)) }
            state.withLock {
                $0.subscribers[id]?.renewAt = renewAt
                $0.subscribers[id]?.isNew = false
            }
        }
    }

    /// `poll`'s timeout for `seconds`, rounded up to the next millisecond, so that the thread does not wake just
    /// before a renewal and poll again with a timeout of 0 until it passes.
    static func pollMilliseconds(_ seconds: Double) -> Int32 {
        Int32(clamping: Int64(min((seconds * 1000).rounded(.up), Double(Int32.max))))
    }
}
