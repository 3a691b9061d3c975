import Kind

/// A battery's or a backlight's session: nothing runs of its own, so stopping it is ending its subscription to the
/// shared uevent listener. Clicks have nothing to do.
final class UeventSession: ProviderSession {
    private let subscription: UeventListener.Subscription

    init(_ subscription: UeventListener.Subscription) {
        self.subscription = subscription
    }

    func deliver(_ invocation: IntentInvocation) {}

    func stop() { subscription.cancel() }
}
