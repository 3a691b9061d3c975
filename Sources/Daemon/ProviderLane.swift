import Kind

/// Where a kind's calls run, so that one kind's waiting cannot hold up another's.
enum ProviderLane: Sendable {
    /// Kinds that do not run commands, use the store or talk to a plugin: the pool of four threads.
    case shared
    /// Kinds that answer at once on the loop's own thread (`quotes`, `clock`, `cpu`: `WidgetKind.answersAtOnce`).
    /// Handed out after every other lane's (`ReloadLanes.next`): a second's reloads start the threads' calls first,
    /// and those run on the other cores while the loop computes these, so their answers are mostly back before the
    /// loop sleeps, and taken in the same turn, with no wake-up of their own.
    case loop
    /// Kinds with a program of their own (plugins: `WidgetKind.providerProcess`): their calls wait for another
    /// process's answer, up to the widget's timeout, without holding a thread (the pool of four runs them), but they
    /// hold a slot of their lane meanwhile. In the shared lane, 32 calls to a plugin that never answers held up every
    /// quote and clock reload behind them.
    case plugins
    /// A thread per call, for kinds that run commands (`exec`), which may take until their timeout.
    case commands
    /// One thread of its own, for kinds that use the shared store (`motivations`, `todos`): another process holding
    /// the store's lock makes them wait, and that wait must not fill the pool that the clocks and quotes need.
    case store
}

extension ProviderLane {
    /// The lane of an instance's calls: its run mode says whether a call blocks a thread (a command), its kind (nil:
    /// unknown) whether calls wait on a program of its own or on the store.
    init(runMode: RunMode, kind: (any WidgetKind)?) {
        if runMode.blocksThread {
            self = .commands
        } else if kind?.providerProcess != nil {
            self = .plugins
        } else {
            self = kind?.usesStore == true ? .store : kind?.answersAtOnce == true ? .loop : .shared
        }
    }
}
