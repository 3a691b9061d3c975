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
public final class MPRISListener: Sendable {
    /// The listener of the daemon, on the session bus its environment names.
    public static let shared = MPRISListener()

    /// One session's wish to be told, until cancelled.
    public final class Subscription: Sendable {
        let id: Int
        let listener: MPRISListener

        init(id: Int, listener: MPRISListener) {
            self.id = id
            self.listener = listener
        }

        /// Stops the calls; one already running may finish.
        public func cancel() { listener.remove(id) }
    }

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

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var lastID = 0
        var started = false
        var requests: [Request] = []
    }

    private let state = Mutex(State())
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        for end in ends where end >= 0 {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    /// Calls `notify` (on the listener's thread) with the bus's state at once, then at each change and when it asked
    /// to be called again. Starts the thread on first use; fails only when no thread can be started.
    public func subscribe(notify: @escaping Notify) -> Result<Subscription, DetachedThread.StartError> {
        let (id, start) = state.withLock { state in
            state.lastID += 1
            state.subscribers[state.lastID] = Subscriber(notify: notify)
            state.requests.append(.refresh)
            defer { state.started = true }
            return (state.lastID, !state.started)
        }
        if start {
            do {
                try DetachedThread.start(name: "widgetd-mpris") { self.run() }
            } catch {
                state.withLock {
                    $0.started = false
                    $0.subscribers[id] = nil
                    $0.requests.removeAll()
                }
                return .failure(error)
            }
        } else {
            wake()
        }
        return .success(Subscription(id: id, listener: self))
    }

    /// Asks the player `busName` to run `method` (`PlayPause`, `Next`, `Previous`); its answer comes as a signal.
    public func call(_ method: String, onPlayer busName: String) {
        state.withLock { $0.requests.append(.call(method: method, busName: busName)) }
        wake()
    }

    private func remove(_ id: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// The thread: what it owns (the connection, the players) lives here and nowhere else.
    private func run() {
        var connection: DBusConnection?
        var players: [String: MusicPlayer] = [:]
        var problem = "not connected"
        var changed = false
        var drain = [UInt8](repeating: 0, count: 64)
        while true {
            let requests = state.withLock { state in
                defer { state.requests.removeAll() }
                return state.requests
            }
            for request in requests {
                switch request {
                case .refresh:
                    if connection == nil {
                        switch MPRISClient.connect() {
                        case .success(let connected): connection = connected
                        case .failure(let error): problem = error.description
                        }
                    }
                    if let connection { players = MPRISClient.players(on: connection, at: Date()) }
                    changed = true
                case .call(let method, let busName):
                    if let connection, players[busName] != nil {
                        MPRISClient.call(method, on: busName, over: connection)
                    }
                }
            }
            // Signals that came while a call waited for its reply are queued already: taken in before sleeping.
            if let current = connection {
                while let message = current.nextMessage() {
                    if MPRISClient.handle(message, players: &players, on: current, at: Date()) { changed = true }
                }
                if !current.isConnected {
                    connection = nil
                    players = [:]
                    problem = "the session bus closed the connection"
                    changed = true
                }
            }
            let busState: MusicBusState =
                connection == nil
                ? .noBus(problem) : .players(players.values.sorted { $0.busName < $1.busName })
            tell(busState, all: changed)
            changed = false

            let now = Date()
            let renewal = state.withLock { $0.subscribers.values.compactMap(\.renewAt).min() }
            let milliseconds = renewal.map { Self.pollMilliseconds(max(0, $0.timeIntervalSince(now))) } ?? -1
            var descriptors = [
                pollfd(fd: connection?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            _ = poll(&descriptors, 2, milliseconds)
            if descriptors[1].revents != 0 { while read(wakeRead, &drain, drain.count) > 0 {} }
            if let current = connection, descriptors[0].revents != 0 {
                // A socket that only reports an error would wake this thread without end: the connection is given up
                // (and tried again only when a music widget starts).
                let failed = descriptors[0].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
                if !current.readAndWrite() || (failed && descriptors[0].revents & Int16(POLLIN) == 0) {
                    connection = nil
                    players = [:]
                    problem = "the session bus closed the connection"
                    changed = true
                }
            }
        }
    }

    /// Tells every subscriber the state when `all`, else only the new ones and those whose renewal is due; keeps the
    /// renewal each asks for.
    private func tell(_ busState: MusicBusState, all: Bool) {
        let now = Date()
        let due = state.withLock { state in
            state.subscribers.compactMap { id, subscriber in
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
