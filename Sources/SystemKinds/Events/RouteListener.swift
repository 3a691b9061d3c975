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
        /// The state at the subscription's start: the first thing every subscriber hears.
        case subscribed
        /// The state changed.
        case changed
        /// Its sampling interval passed.
        case sample
        /// The subscriber asked to hear the state again (`Subscription.retell`), as a click that changes its format.
        case retold
        /// The socket failed after the start: the state stays as last heard, no longer followed, and `problem` says
        /// why.
        case failed
    }

    /// One listening session's wish, until cancelled.
    public final class Subscription: Sendable {
        private let listener: RouteListener
        private let id: Int

        fileprivate init(listener: RouteListener, id: Int) {
            self.listener = listener
            self.id = id
        }

        /// Stops the calls; one already running may finish.
        public func cancel() { listener.remove(id) }

        /// Asks the listener's thread to tell this subscriber the state again (cause `retold`), in its turn after
        /// whatever it is telling now: never on the caller's thread, so never out of order with the changes.
        public func retell() { listener.owe(.retold, to: id) }
    }

    private struct Subscriber {
        var sampleInterval: Duration?
        var nextSample: ContinuousClock.Instant?
        /// Set when the subscriber is owed a call the thread has not made yet: its first, or one it asked for.
        var owed: Cause?
        var notify: @Sendable (NetworkState, Cause) -> Void
    }

    private struct State: ListenerState {
        var subscribers = Subscribers<Subscriber>()
        var started = false
        var network = NetworkState()
        /// Why changes cannot be heard, once the thread tried to open its socket.
        var problem: String?
        /// The socket's descriptor while the thread reads it, for `breakSocketForTesting`.
        var descriptor: Int32?
    }

    private let state = Mutex(State())
    /// Wakes the thread when the subscribers change, so it waits for the right sampling deadline.
    private let wakePipe = WakePipe()

    /// The most datagrams one wake-up reads before the subscribers are told: a flood costs one notification per batch.
    static let datagramsPerWake = 64

    init() {}

    /// Calls `notify` (on the listener's thread, only ever there) with the state at once (cause `subscribed`), then
    /// whenever it changes, and at each `sampleInterval` if one is given. The first subscriber starts the thread, which
    /// opens the socket and reads the state (a dump) before it tells anyone: the caller never waits for the kernel.
    /// Fails only when no thread can be started.
    public func subscribe(
        sampleInterval: Duration?, notify: @escaping @Sendable (NetworkState, Cause) -> Void
    ) -> Result<Subscription, DetachedThread.StartError> {
        let subscriber = Subscriber(
            sampleInterval: sampleInterval, nextSample: sampleInterval.map { .now.advanced(by: $0) },
            owed: .subscribed, notify: notify)
        return state.subscribe(subscriber, wakePipe: wakePipe) { () throws(DetachedThread.StartError) in
            try DetachedThread.start(name: "widgetd-rtnetlink") { self.run() }
        }.map { Subscription(listener: self, id: $0) }
    }

    /// The state as last heard.
    public var network: NetworkState { state.withLock { $0.network } }

    /// Why changes cannot be heard (the widget shows the state as last heard), or nil.
    public var problem: String? { state.withLock { $0.problem } }

    private func remove(_ id: Int) {
        state.unsubscribe(id, wakePipe: wakePipe)
    }

    private func owe(_ cause: Cause, to id: Int) {
        state.withLock { $0.subscribers[id]?.owed = cause }
        wakePipe.wake()
    }

    /// For tests, which cannot make the kernel fail the socket: puts in place of its descriptor (the same number, so
    /// that the socket's own `close` still closes it once) the write end of a pipe with no reader, which `poll` reports
    /// as an error only, as it would a socket that died, and wakes the thread. False before the thread opened it.
    func breakSocketForTesting() -> Bool {
        var ends: [Int32] = [-1, -1]
        let broken = state.withLock { state -> Bool in
            guard let descriptor = state.descriptor, pipe(&ends) == 0 else { return false }
            close(ends[0])
            defer { close(ends[1]) }
            return dup2(ends[1], descriptor) == descriptor
        }
        wakePipe.wake()
        return broken
    }

    /// Opens the socket and reads the state whole: on the thread, so that no caller waits for the kernel's answer
    /// (up to a second per datagram). The socket is bound before the dump: a change during the dump is queued on it
    /// and applied after, in order.
    private func open() -> RouteSocket? {
        var socket: RouteSocket?
        do {
            let opened = try RouteSocket(groups: RouteSocket.changeGroups)
            socket = opened
            state.withLock { $0.descriptor = opened.descriptor }
            let network = try RouteSocket.dump()
            state.withLock { $0.network = network }
        } catch {
            state.withLock { $0.problem = error.description }
        }
        return socket
    }

    /// The thread: opens the socket, then waits for a datagram, a change of subscribers or the nearest sampling
    /// deadline, applies what the kernel said, and tells whom it concerns. Every call of every subscriber is made here,
    /// one after another, so none hears an older state after a newer one. It runs as long as the process; with no
    /// subscriber that samples and none owed a call it sleeps with no timeout.
    private func run() {
        var socket = open()
        var buffer = [UInt8](repeating: 0, count: RouteSocket.datagramLimit)
        while true {
            let timeout = state.withLock { state in
                state.subscribers.byID.values.contains { $0.owed != nil }
                    ? ContinuousClock.now : state.subscribers.nearest(\.nextSample)
            }.map { ContinuousClock.now.duration(to: $0) }
            let events = wakePipe.wait(
                for: socket?.descriptor ?? -1, milliseconds: timeout.map(UeventListener.pollMilliseconds) ?? -1)
            var messages: [RouteMessage] = []
            var redump = false
            var failed = false
            if socket != nil, events & Int16(POLLERR | POLLNVAL | POLLHUP) != 0, events & Int16(POLLIN) == 0 {
                // A socket that only reports errors would wake this thread without end: give it up, and tell every
                // subscriber, whose state is no longer followed.
                state.withLock {
                    $0.problem = "the rtnetlink socket failed; the network is no longer followed"
                    $0.descriptor = nil
                }
                socket = nil
                failed = true
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
                    let owed = subscriber.owed
                    state.subscribers[id]?.owed = nil
                    var sampled = false
                    if let next = subscriber.nextSample, next <= now, let interval = subscriber.sampleInterval {
                        state.subscribers[id]?.nextSample = now.advanced(by: interval)
                        sampled = true
                    }
                    // One call, for the weightiest cause: a first call samples too (it starts the counters the
                    // throughput is measured from), and a failure is said even at a sample's turn.
                    let cause: Cause? =
                        owed == .subscribed
                        ? .subscribed
                        : failed ? .failed : sampled ? .sample : owed ?? (changed ? .changed : nil)
                    if let cause { due.append((subscriber.notify, cause)) }
                }
                return (state.network, due)
            }
            for (notify, cause) in due.1 { notify(due.0, cause) }
        }
    }
}
