import FoundationEssentials

/// What the engine answers about one instance, by name: read in place, never copying a state (see `states`).
extension Engine {
    /// The instance named `name`, as configured.
    public func instance(named name: String) -> Instance? {
        guard let index = indexByName[name] else { return nil }
        return states.withUnsafeBufferPointer { $0[index].instance }
    }

    /// What `body` answers about the instance named `name`, which it borrows: the daemon asks for a field or two at
    /// every swap, and `instance(named:)` copies the whole instance.
    @inlinable
    public func withInstance<Result>(named name: String, _ body: (Instance) -> Result) -> Result? {
        guard let index = indexByName[name] else { return nil }
        return states.withUnsafeBufferPointer { body($0[index].instance) }
    }

    /// What `body` answers about the instance named `name` and what it shows at `now`, when `token` is the reload the
    /// engine waits for (nil otherwise, or when there is no such instance): `isAwaiting`, `content` and `withInstance`
    /// in one lookup, for the loop as it starts a call (three lookups by name were a tenth of a reload's work before
    /// its file's rename).
    @inlinable
    public func withAwaitedInstance<Result>(
        named name: String, token: UInt64, at now: Date, _ body: (Instance, EntryContent) -> Result
    ) -> Result? {
        guard let index = indexByName[name] else { return nil }
        return states.withUnsafeBufferPointer { states in
            guard states[index].inFlight == token else { return nil }
            return body(states[index].instance, states[index].content(at: now))
        }
    }

    /// What the instance shows at `now`.
    public func content(of name: String, at now: Date) -> EntryContent? {
        guard let index = indexByName[name] else { return nil }
        return states.withUnsafeBufferPointer { $0[index].content(at: now) }
    }

    /// Its timeline, fallback and failure, for readers that work out what it shows at any instant (the daemon's
    /// `InstanceRecord`, made in `Config`'s `Engine+Record.swift`).
    public func timeline(of name: String) -> (timeline: Timeline?, fallback: EntryContent, failure: String?)? {
        guard let index = indexByName[name] else { return nil }
        let state = states[index]
        return (state.timeline, state.fallback, state.failure)
    }

    /// A snapshot for `widgetd list`.
    public func status(of name: String, now: Date) -> InstanceStatus<Instance>? {
        guard let index = indexByName[name] else { return nil }
        let state = states[index]
        return InstanceStatus(
            instance: state.instance, content: state.content(at: now), policy: state.timeline?.policy,
            nextReload: state.inFlight == nil ? (state.requested ? now : state.reloadDeadline) : nil,
            isReloading: state.inFlight != nil, lastError: state.failure)
    }
}
