import FoundationEssentials
import Kind
import Timelines

/// A sound widget's session: a subscription to the process's one `PulseConnection`, which pushes a timeline at each
/// change of the server's state, and the widget's clicks run on that connection (no `pactl` is started).
final class SoundSession: ProviderSession {
    private let subscription: PulseConnection.Subscription
    private let connection: PulseConnection
    private let settings: SoundSettings
    private let updates: @Sendable (SessionUpdate) -> Void

    private init(
        _ subscription: PulseConnection.Subscription, connection: PulseConnection, settings: SoundSettings,
        updates: @escaping @Sendable (SessionUpdate) -> Void
    ) {
        self.subscription = subscription
        self.connection = connection
        self.settings = settings
        self.updates = updates
    }

    /// Pushes the state the connection knows, if any, then one timeline at each change until stopped.
    static func start(
        on connection: PulseConnection, settings: SoundSettings, family: Family,
        updates: @escaping @Sendable (SessionUpdate) -> Void
    ) -> SoundSession {
        let subscription = connection.subscribe { state in
            updates(.timeline(settings.timeline(state, family: family, at: Date())))
        }
        return SoundSession(subscription, connection: connection, settings: settings, updates: updates)
    }

    /// Runs the click's intent; what fails (no server, no such device, an intent the kind lacks) is a note.
    func deliver(_ invocation: IntentInvocation) -> String? {
        do {
            _ = try connection.perform(
                SoundSettings.action(invocation.intent), on: settings.device, step: settings.step,
                maximum: settings.maximum)
        } catch {
            updates(.note("\(invocation.intent): \(error)"))
        }
        return nil
    }

    func stop() { subscription.cancel() }
}
