import FoundationEssentials
import Kind
import Timelines

/// A battery's or a backlight's session: nothing runs of its own, so stopping it is ending its subscription to the
/// shared uevent listener. Clicks have nothing to do.
final class UeventSession: ProviderSession {
    private let subscription: UeventListener.Subscription

    private init(_ subscription: UeventListener.Subscription) {
        self.subscription = subscription
    }

    /// Pushes `timeline(now)` at once, then again at each uevent of `subsystem` and each `safetyInterval` without
    /// one, `now` read on `clock` (the daemon's, which the entries are shown on). Why uevents cannot be heard, if they
    /// cannot, is said once as a note.
    static func start(
        on listener: UeventListener, subsystem: String, safetyInterval: Duration, clock: any SessionClock,
        updates: @escaping @Sendable (SessionUpdate) -> Void, timeline: @escaping @Sendable (Date) -> Timeline
    ) throws -> UeventSession {
        updates(.timeline(timeline(clock.now)))
        let subscription = try listener.subscribe(subsystem: subsystem, safetyInterval: safetyInterval) { _ in
            updates(.timeline(timeline(clock.now)))
        }.get()
        if let problem = listener.socketProblem { updates(.note(problem)) }
        return UeventSession(subscription)
    }

    func deliver(_ invocation: IntentInvocation) -> String? { nil }

    func stop() { subscription.cancel() }
}
