import Basics
import FoundationEssentials
import Glibc
import Synchronization

/// The one rtnetlink socket of the process, shared by every network widget: one descriptor and one thread, however
/// many widgets listen, started by the first.
///
/// It keeps the namespace's `NetworkState` (a dump when it starts, then each change the kernel multicasts) and tells
/// every subscriber the new state when it changes. A subscriber that shows throughput (which has no event source) also
/// asks to be woken at its sampling interval; one that does not is woken only by the kernel, so with nothing changing
/// nothing runs.
public final class RouteListener: Sendable {
    /// The listener of the daemon, for the namespace it runs in.
    public static let shared = RouteListener()

    /// Why a subscriber is told.
    public enum Cause: Sendable, Equatable {
        /// The state changed, or this is the state at the subscription's start.
        case changed
        /// Its sampling interval passed.
        case sample
    }

    /// One listening session's wish, until cancelled.
    public typealias Subscription = ListenerSubscription

    private struct Subscriber {
        var sampleInterval: Duration?
        var nextSample: ContinuousClock.Instant?
        var notify: @Sendable (NetworkState, Cause) -> Void
    }

    private struct State {
        var subscribers = Subscribers<Subscriber>()
        var started = false
        var network = NetworkState()
        /// Why changes cannot be heard, once the first subscriber tried.
        var problem: String?
    }

    private let state = Mutex(State())
    /// Wakes the thread when the subscribers change, so it waits for the right sampling deadline.
    private let wakePipe = WakePipe()

    /// The most datagrams one wake-up reads before the subscribers are told: a flood costs one notification per batch.
    static let datagramsPerWake = 64

    init() {}

    /// Calls `notify` (on the listener's thread) with the state whenever it changes, and at each `sampleInterval` if
    /// one is given. The first subscriber opens the socket, reads the state (a dump) and starts the thread; fails only
    /// when no thread can be started.
    public func subscribe(
        sampleInterval: Duration?, notify: @escaping @Sendable (NetworkState, Cause) -> Void
    ) -> Result<Subscription, DetachedThread.StartError> {
        let (id, start) = state.withLock { state in
            let id = state.subscribers.add(
                Subscriber(
                    sampleInterval: sampleInterval, nextSample: sampleInterval.map { .now.advanced(by: $0) },
                    notify: notify))
            defer { state.started = true }
            return (id, !state.started)
        }
        if start {
            // Opened and dumped here, not on the thread, so the first session starts from the real state. The socket
            // is bound before the dump: a change during the dump is queued on it and applied after, in order.
            var socket: RouteSocket?
            do {
                socket = try RouteSocket(groups: RouteSocket.changeGroups)
                let network = try RouteSocket.dump()
                state.withLock { $0.network = network }
            } catch {
                state.withLock { $0.problem = error.description }
            }
            do {
                try DetachedThread.start(name: "widgetd-rtnetlink") { [socket] in self.run(socket) }
            } catch {
                state.withLock {
                    $0.started = false
                    $0.subscribers.remove(id)
                }
                return .failure(error)
            }
        } else {
            wakePipe.wake()
        }
        return .success(Subscription { self.remove(id) })
    }

    /// The state as last heard.
    public var network: NetworkState { state.withLock { $0.network } }

    /// Why changes cannot be heard (the widget shows the state at its start only), or nil.
    public var problem: String? { state.withLock { $0.problem } }

    private func remove(_ id: Int) {
        state.withLock { $0.subscribers.remove(id) }
        wakePipe.wake()
    }

    /// The thread: waits for a datagram, a change of subscribers or the nearest sampling deadline, applies what the
    /// kernel said, and tells whom it concerns. It runs as long as the process; with no subscriber that samples it
    /// sleeps with no timeout.
    private func run(_ socket: RouteSocket?) {
        var socket = socket
        var buffer = [UInt8](repeating: 0, count: RouteSocket.datagramLimit)
        while true {
            let timeout = state.withLock { $0.subscribers.nearest(\.nextSample) }.map {
                ContinuousClock.now.duration(to: $0)
            }
            let events = wakePipe.wait(
                for: socket?.descriptor ?? -1, milliseconds: timeout.map(UeventListener.pollMilliseconds) ?? -1)
            var messages: [RouteMessage] = []
            var redump = false
            if socket != nil, events & Int16(POLLERR | POLLNVAL | POLLHUP) != 0, events & Int16(POLLIN) == 0 {
                // A socket that only reports errors would wake this thread without end: give it up.
                state.withLock { $0.problem = "the rtnetlink socket failed; the network is no longer followed" }
                socket = nil
            } else if let socket, events != 0 {
                reading: for _ in 0..<Self.datagramsPerWake {
                    switch socket.receive(into: &buffer) {
                    case .messages(let received): messages += received
                    case .overrun: redump = true
                    case .empty: break reading
                    }
                }
            }
            // Lost messages leave the state unknown: it is read whole again.
            let dumped = redump ? try? RouteSocket.dump() : nil
            let now = ContinuousClock.now
            let due = state.withLock { state in
                let before = state.network
                if let dumped { state.network = dumped }
                for message in messages { state.network.apply(message) }
                let changed = state.network != before
                var due: [(@Sendable (NetworkState, Cause) -> Void, Cause)] = []
                for (id, subscriber) in state.subscribers.byID {
                    if let next = subscriber.nextSample, next <= now, let interval = subscriber.sampleInterval {
                        state.subscribers[id]?.nextSample = now.advanced(by: interval)
                        due.append((subscriber.notify, .sample))
                    } else if changed {
                        due.append((subscriber.notify, .changed))
                    }
                }
                return (state.network, due)
            }
            for (notify, cause) in due.1 { notify(due.0, cause) }
        }
    }
}
