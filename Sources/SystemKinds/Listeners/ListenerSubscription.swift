/// One subscriber's wish to be told by a process-wide listener, until cancelled.
public final class ListenerSubscription: Sendable {
    private let stop: @Sendable () -> Void

    /// `stop` removes the subscriber from its listener.
    init(stop: @escaping @Sendable () -> Void) {
        self.stop = stop
    }

    /// Stops the calls; one already running may finish.
    public func cancel() { stop() }
}
