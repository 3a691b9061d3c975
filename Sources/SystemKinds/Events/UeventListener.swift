import Basics
import FoundationEssentials
import Glibc
import Synchronization

/// The one uevent socket of the process, shared by every battery and backlight widget: one descriptor and one
/// thread, however many widgets listen.
///
/// A thread of its own, not the daemon's loop: the loop polls a fixed set of descriptors the core owns, and the kind
/// boundary keeps uevents out of the core (no system kind is known to it). A session's `updates` already wakes the
/// loop from any thread, so this thread only reads, filters and tells the subscribed sessions, which re-read their
/// files and push a timeline.
///
/// It also wakes each subscriber at its safety interval: some firmware sends no uevent as a battery drains.
public final class UeventListener: Sendable {
    /// The listener of the daemon: the kernel's socket, or the test's (`WIDGETD_UEVENT_SOCKET`).
    public static let shared = UeventListener()

    /// Why a subscriber is told to read again.
    public enum Cause: Sendable, Equatable {
        /// A uevent of its subsystem arrived.
        case uevent
        /// Its safety interval passed with no uevent, or the kernel dropped messages.
        case reread
    }

    /// One listening session's wish, until cancelled.
    public typealias Subscription = ListenerSubscription

    private struct Subscriber {
        var subsystem: String
        var safetyInterval: Duration
        var nextReread: ContinuousClock.Instant
        var notify: @Sendable (Cause) -> Void
    }

    private struct State: ListenerState {
        var subscribers = Subscribers<Subscriber>()
        var started = false
        /// Why the socket could not be opened, once the thread tried.
        var socketProblem: String?
    }

    private let state = Mutex(State())
    /// Wakes the thread when the subscribers change, so it waits for the right safety deadline.
    private let wakePipe = WakePipe()
    private let testPath: String?

    /// The most messages one wake-up reads before the subscribers are told: a flood costs one re-read per batch.
    static let messagesPerWake = 64

    init(testPath: String? = UeventSocket.testPath) {
        self.testPath = testPath
    }

    /// Calls `notify` (on the listener's thread) for each batch of uevents of `subsystem`, and when `safetyInterval`
    /// passes without one. Starts the thread on first use; fails only when no thread can be started.
    public func subscribe(
        subsystem: String, safetyInterval: Duration, notify: @escaping @Sendable (Cause) -> Void
    ) -> Result<Subscription, DetachedThread.StartError> {
        let subscriber = Subscriber(
            subsystem: subsystem, safetyInterval: safetyInterval, nextReread: .now.advanced(by: safetyInterval),
            notify: notify)
        return state.subscribe(subscriber, wakePipe: wakePipe) { () throws(DetachedThread.StartError) in
            // Opened here, not on the thread, so the first session already knows whether uevents can come.
            var socket: UeventSocket?
            do throws(UeventSocketError) {
                socket = try UeventSocket(testPath: testPath)
            } catch {
                state.withLock { $0.socketProblem = error.description }
            }
            try DetachedThread.start(name: "widgetd-uevent") { [socket] in self.run(socket) }
        }.map { id in Subscription { self.remove(id) } }
    }

    /// Why uevents cannot be heard (only the safety re-reads come), or nil.
    public var socketProblem: String? { state.withLock { $0.socketProblem } }

    private func remove(_ id: Int) {
        state.unsubscribe(id, wakePipe: wakePipe)
    }

    /// `poll`'s timeout for `duration`, rounded up to the next millisecond: rounded down, the thread would wake just
    /// before a deadline, find nothing due and poll again with a timeout of 0 until it passed.
    static func pollMilliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return .max }
        return Int32(clamping: milliseconds.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    /// The thread: waits for a uevent, a change of subscribers or the nearest safety deadline, and tells whom it
    /// concerns. It runs as long as the process; with no subscriber it sleeps with no timeout.
    private func run(_ socket: UeventSocket?) {
        var socket = socket
        var buffer = [UInt8](repeating: 0, count: UeventMessage.byteLimit + 1)
        while true {
            let timeout = state.withLock { $0.subscribers.nearest { $0.nextReread } }.map {
                ContinuousClock.now.duration(to: $0)
            }
            let events = wakePipe.wait(
                for: socket?.descriptor ?? -1, milliseconds: timeout.map(Self.pollMilliseconds) ?? -1)
            var touched: Set<String> = []
            var rereadAll = false
            if socket != nil, events & Int16(POLLERR | POLLNVAL | POLLHUP) != 0, events & Int16(POLLIN) == 0 {
                // A socket that only reports errors would wake this thread without end: give it up.
                state.withLock { $0.socketProblem = "the uevent socket failed; re-reading at the safety interval" }
                socket = nil
            } else if let socket, events != 0 {
                reading: for _ in 0..<Self.messagesPerWake {
                    switch socket.receive(into: &buffer) {
                    case .message(let message): message.subsystem.map { _ = touched.insert($0) }
                    case .skipped: continue
                    case .overrun: rereadAll = true
                    case .empty: break reading
                    }
                }
            }
            let now = ContinuousClock.now
            let due = state.withLock { state in
                var due: [(@Sendable (Cause) -> Void, Cause)] = []
                for (id, subscriber) in state.subscribers.byID {
                    let heard = touched.contains(subscriber.subsystem) || rereadAll
                    guard heard || subscriber.nextReread <= now else { continue }
                    state.subscribers[id]?.nextReread = now.advanced(by: subscriber.safetyInterval)
                    due.append((subscriber.notify, touched.contains(subscriber.subsystem) ? .uevent : .reread))
                }
                return due
            }
            for (notify, cause) in due { notify(cause) }
        }
    }
}
