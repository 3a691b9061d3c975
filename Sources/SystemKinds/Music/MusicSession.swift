import FoundationEssentials
import Kind
import Synchronization
import Timelines

/// A music widget's session: subscribed to the shared `MPRISListener`, it pushes a timeline at each change of the
/// players, and hands a click's intent to the player it shows.
final class MusicSession: ProviderSession {
    /// The bus's state as last told, for clicks to find the player shown.
    private final class LastState: Sendable {
        let value = Mutex<MusicBusState?>(nil)
    }

    private let subscription: MPRISListener.Subscription
    private let lastState: LastState
    private let listener: MPRISListener
    private let wanted: String?
    private let updates: @Sendable (SessionUpdate) -> Void

    private init(
        subscription: MPRISListener.Subscription, lastState: LastState, listener: MPRISListener, wanted: String?,
        updates: @escaping @Sendable (SessionUpdate) -> Void
    ) {
        self.subscription = subscription
        self.lastState = lastState
        self.listener = listener
        self.wanted = wanted
        self.updates = updates
    }

    /// Subscribes; the listener's thread pushes the first timeline as soon as it has read the bus.
    static func start(
        on listener: MPRISListener, presentation: MusicTimeline, updates: @escaping @Sendable (SessionUpdate) -> Void
    ) throws -> MusicSession {
        let lastState = LastState()
        let subscription = try listener.subscribe { state in
            lastState.value.withLock { $0 = state }
            let timeline = presentation.timeline(state, at: Date())
            updates(.timeline(timeline))
            // A run of the position ends: asked again at its last entry, for the next minute's.
            return timeline.policy == .atEnd ? timeline.entries.last?.date : nil
        }.get()
        return MusicSession(
            subscription: subscription, lastState: lastState, listener: listener, wanted: presentation.wanted,
            updates: updates)
    }

    /// The MPRIS method each intent calls.
    static let methods = ["play_pause": "PlayPause", "next": "Next", "previous": "Previous"]

    func deliver(_ invocation: IntentInvocation) -> String? {
        guard let method = Self.methods[invocation.intent] else {
            updates(.note("music has no intent '\(invocation.intent)'"))
            return nil
        }
        guard case .players(let players)? = lastState.value.withLock({ $0 }),
            let player = MusicPlayer.chosen(among: players, wanted: wanted)
        else {
            updates(.note("no MPRIS player to send \(method) to"))
            return nil
        }
        listener.call(method, onPlayer: player.busName)
        return nil
    }

    func stop() { subscription.cancel() }
}
