import Config
import Control
import FoundationEssentials
import Kind
import Timelines

/// The daemon's rules for the reloads the engine starts, with no I/O: which lane a reload waits in and how many run
/// there at once (`ReloadLanes`), which waiting reloads are skipped (the engine timed them out in the queue, or a newer
/// one superseded them), when a call's timeout starts, which `--wait` requests a finished reload completes and when
/// one is refused (`AcknowledgementBook`), how many intents on command widgets wait or run at once, and when the store
/// is worth holding open.
///
/// It holds that state and reads the time from the daemon's clock; the daemon carries out what it decides (the
/// provider threads, the files, the store's hold), so a test drives it with a `ManualClock` and an engine alone.
struct ReloadDispatcher {
    let clock: any DaemonClock
    /// Reloads waiting for a provider thread, by lane.
    private(set) var lanes = ReloadLanes()
    /// `--wait` requests waiting for reloads to finish.
    private var acknowledgements = AcknowledgementBook()
    /// Clicks and intents on command widgets waiting for a thread or running.
    private(set) var commandIntents = 0

    /// How many clicks and intents on command widgets may wait or run at once.
    static let commandIntentsAtOnce = 64

    init(clock: any DaemonClock) {
        self.clock = clock
    }

    // MARK: - Lanes

    /// The lane an instance's reloads wait in, or nil for a persistent one (`interval: persist`), which runs no call
    /// per reload. `kind`: the instance's kind, nil when unknown.
    static func lane(of instance: WidgetInstance, kind: (any WidgetKind)?) -> ProviderLane? {
        instance.runMode.isPersistent ? nil : ProviderLane(runMode: instance.runMode, kind: kind)
    }

    /// A reload the engine started waits for a slot on `lane`.
    mutating func queue(_ instance: String, token: UInt64, lane: ProviderLane) {
        lanes.add(instance, token: token, lane: lane)
    }

    /// Whether a reload `start` is handed, was answered at once on the loop's thread.
    enum Start {
        /// A call runs on a provider thread: its timeout counts from now.
        case running
        /// The kind answered at once: the answer is taken in before the loop sleeps, and needs no timeout.
        case answeredAtOnce
    }

    /// Hands each waiting reload a lane has a free slot for to `start`, with its instance, its entry now and the time
    /// it is handed out, read anew for each (the calls before it took time). A reload the engine no longer waits for
    /// (timed out in the queue, superseded by a newer one, or its widget gone) is skipped, and its slot freed at once;
    /// the timeout of one that runs counts from when it was handed out, not from when the engine asked for it.
    /// `before`: runs before each reload is looked at (the daemon lets bar readers run).
    mutating func startWaiting(
        in engine: inout Engine<WidgetInstance>, before: () -> Void = {},
        _ start: (ReloadQueue.Reload, WidgetInstance, EntryContent, Date) -> Start
    ) {
        while let (reload, lane) = lanes.next() {
            before()
            let now = clock.now
            // One lookup by name for every question; the instance is borrowed, not copied.
            switch engine.withAwaitedInstance(
                named: reload.instance, token: reload.token, at: now,
                {
                    start(reload, $0, $1, now)
                })
            {
            case nil: lanes.finished(lane)
            case .running?: engine.started(instance: reload.instance, token: reload.token, now: now)
            case .answeredAtOnce?: break
            }
        }
    }

    /// A call handed out on `lane` finished: its slot is free.
    mutating func callFinished(on lane: ProviderLane) {
        lanes.finished(lane)
    }

    // MARK: - Acknowledgements

    /// Why a `--wait` request is answered at once with a failure rather than when its reloads finish.
    enum Refusal: Equatable {
        /// The target matched no widget of the running config.
        case matchesNothing
        /// `AcknowledgementBook.limit` requests wait already: the reloads still happen, unconfirmed.
        case tooManyWaiting
    }

    /// Waits for the reloads of `instances` the request `token` caused to finish: those the engine issues after
    /// `issuedBefore` (its last token before the request), so a reload already running when the request came does
    /// not count. Nil when it waits; else why it is refused.
    mutating func acknowledge(
        _ token: ControlCommand.AckToken, whenReloaded instances: [String], issuedBefore: UInt64
    ) -> Refusal? {
        if instances.isEmpty { return .matchesNothing }
        if acknowledgements.count >= AcknowledgementBook.limit { return .tooManyWaiting }
        acknowledgements.wait(token, for: instances, after: issuedBefore)
        return nil
    }

    /// A reload finished, with an answer, a failure (`failure`: why) or a timeout: the requests now complete.
    mutating func reloadFinished(instance: String, token: UInt64, failure: String? = nil) -> [AcknowledgementBook.Done]
    {
        acknowledgements.completed(instance: instance, token: token, failure: failure)
    }

    /// The instance left the config: no reload of it will finish, and the requests waiting for one fail.
    mutating func forget(instance: String) -> [AcknowledgementBook.Done] {
        acknowledgements.forget(instance: instance)
    }

    /// `--wait` requests waiting now.
    var acknowledgementsWaiting: Int { acknowledgements.count }

    // MARK: - Intents on command widgets

    /// Admits a click's or intent's run on a command widget, unless `commandIntentsAtOnce` wait or run: a flood of
    /// clicks on a slow script would otherwise queue without end, holding every `--wait` behind it.
    mutating func admitCommandIntent() -> Bool {
        guard commandIntents < Self.commandIntentsAtOnce else { return false }
        commandIntents += 1
        return true
    }

    /// An admitted intent on a command widget finished.
    mutating func commandIntentFinished() {
        commandIntents = max(0, commandIntents - 1)
    }

    // MARK: - The store

    /// Whether the store should be held open, given whether it is (`Daemon+StoreHold`): taken when a store reload waits
    /// behind another (or will, after the next is handed out), kept while any waits, given back once none does.
    func wantsStoreHeld(holding: Bool) -> Bool {
        let store = lanes.store
        return holding ? store.waitingCount > 0 : store.waitingCount > 0 && store.waitingCount + store.running > 1
    }
}
