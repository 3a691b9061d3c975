import Basics
import Synchronization

/// What a process-wide listener keeps under its lock for its subscribers: who they are, and whether its thread was
/// started.
protocol ListenerState {
    associatedtype Subscriber: Sendable
    var subscribers: Subscribers<Subscriber> { get set }
    var started: Bool { get set }
}

extension Mutex where Value: ListenerState {
    /// Adds `subscriber` and answers its id. The first subscriber starts the listener's thread (`startThread`); when
    /// that fails it is taken out again, so that the next one tries again. A later one wakes the running thread
    /// (`wakePipe`), which then waits for its deadline too.
    func subscribe(
        _ subscriber: Value.Subscriber, wakePipe: WakePipe,
        startThread: () throws(DetachedThread.StartError) -> Void
    ) -> Result<Int, DetachedThread.StartError> {
        let (id, start) = withLock { state in
            let id = state.subscribers.add(subscriber)
            defer { state.started = true }
            return (id, !state.started)
        }
        guard start else {
            wakePipe.wake()
            return .success(id)
        }
        do {
            try startThread()
        } catch {
            withLock {
                $0.started = false
                $0.subscribers.remove(id)
            }
            return .failure(error)
        }
        return .success(id)
    }

    /// Takes the subscriber `id` out, and wakes the thread so that it no longer waits for that one's deadline.
    func unsubscribe(_ id: Int, wakePipe: WakePipe) {
        withLock { $0.subscribers.remove(id) }
        wakePipe.wake()
    }
}
