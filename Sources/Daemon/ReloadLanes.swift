/// The reloads waiting for each lane of provider threads (`ProviderLane`), each lane with its own limit on the calls
/// running at once (`ReloadQueue`).
struct ReloadLanes {
    /// Reloads waiting for a shared provider thread; 32 run at once, enough to keep the four threads busy.
    private(set) var shared = ReloadQueue(limit: 32)
    /// Reloads of kinds that run commands, each on a thread of its own while it runs; 64 at once.
    private(set) var commands = ReloadQueue(limit: 64)
    /// Reloads of store-backed kinds, one at a time on the store's own thread: its timeout starts when it runs.
    private(set) var store = ReloadQueue(limit: 1)
    /// Reloads of plugin kinds, waiting for their plugins' answers; 64 at once.
    private(set) var plugins = ReloadQueue(limit: 64)
    /// Reloads answered on the loop's thread; 32 at once, taken in before the next are handed out.
    private(set) var loop = ReloadQueue(limit: 32)

    mutating func add(_ instance: String, token: UInt64, lane: ProviderLane) {
        switch lane {
        case .shared: shared.add(instance, token: token)
        case .commands: commands.add(instance, token: token)
        case .store: store.add(instance, token: token)
        case .plugins: plugins.add(instance, token: token)
        case .loop: loop.add(instance, token: token)
        }
    }

    /// The oldest reload a lane has a free slot for, counted as running there: the shared lane's first, then the
    /// commands', the store's and the plugins', and the loop's last (`ProviderLane.loop`); nil when no lane can start
    /// one.
    mutating func next() -> (reload: ReloadQueue.Reload, lane: ProviderLane)? {
        if let reload = shared.next() { return (reload, .shared) }
        if let reload = commands.next() { return (reload, .commands) }
        if let reload = store.next() { return (reload, .store) }
        if let reload = plugins.next() { return (reload, .plugins) }
        if let reload = loop.next() { return (reload, .loop) }
        return nil
    }

    /// A call handed out by `next()` on `lane` finished (or was skipped): its slot is free.
    mutating func finished(_ lane: ProviderLane) {
        switch lane {
        case .shared: shared.finished()
        case .commands: commands.finished()
        case .store: store.finished()
        case .plugins: plugins.finished()
        case .loop: loop.finished()
        }
    }
}
