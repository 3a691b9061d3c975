import FoundationEssentials

/// What the loop must do after the engine has looked at the clock.
public enum EngineAction: Sendable, Equatable {
    /// Call the instance's provider; report the result with `completed(instance:token:result:now:)`.
    case reload(instance: String, token: UInt64)
    /// The instance shows new content: render and write it.
    case show(instance: String, content: EntryContent)
    /// What the instance will show over time changed (it started, a timeline arrived, a reload failed or
    /// recovered): write its record (`record(of:)`). Entry swaps never cause this.
    case recordChanged(instance: String)
    /// The engine gave up on a provider call (it timed out): log it, and count it as that reload's failure.
    case failed(instance: String, token: UInt64, reason: String)

    /// Whether this is a `.show`.
    public var isShow: Bool {
        if case .show = self { true } else { false }
    }
}

/// The timeline engine's pure core: it knows every instance's timeline and deadlines, and answers what is
/// due at a given `now` and when to look again. It never reads the clock, sleeps or does I/O, so tests
/// drive it with any sequence of instants (jumps forward and back, DST days).
public struct Engine<Instance: ScheduledInstance>: Sendable {
    public let settings: EngineSettings
    /// Read in place (`_modify`, a mutating method of the state, or a pointer): this code is generic, and where it is
    /// not specialized for the daemon's instance type `states[i].field` would copy the whole state, instance included,
    /// through its value witness first. (`withInstance`, called at every swap, is `@inlinable` so that the daemon
    /// specializes it.)
    @usableFromInline private(set) var states: [InstanceState<Instance>] = []
    /// Each state's generation, bumped whenever its deadline changes, so stale heap items are recognised; kept beside
    /// the states so that checking a heap item reads no state.
    private var generations: [UInt64] = []
    @usableFromInline private(set) var indexByName: [String: Int] = [:]
    private var heap = DeadlineHeap()
    /// `advance`'s list of the instances due, kept between calls with its storage: made anew, it would grow again at
    /// every wake of per-second clocks (docs/PERFORMANCE.md, "Swap cost").
    private var dueBuffer: [Int] = []
    private var nextToken: UInt64 = 1
    /// How many instances have had no answer yet: neither a timeline nor a failure since they started. The daemon
    /// waits for none to be left before it trims its start-up's working set (`WorkingSet`). An instance once answered
    /// stays answered (nothing takes a timeline or failure away), so a counter is enough.
    public private(set) var unansweredInstances = 0

    /// Starts every instance: placeholders (or restored entries) show at once, and every instance asks
    /// for its first timeline.
    public init(
        instances: [Instance], placeholders: [String: EntryContent], restored: [String: EntryContent] = [:],
        settings: EngineSettings = EngineSettings(), now: Date
    ) {
        self.init(
            instances: instances, fallback: { restored[$0.name] ?? placeholders[$0.name] }, settings: settings, now: now
        )
    }

    /// Starts every instance as `init(instances:placeholders:restored:settings:now:)` does, asking `fallback` for each
    /// one's restored entry or placeholder as its state is made (the instance's name when it gives none): the daemon
    /// then builds no dictionary of 10,000 placeholders beside the states.
    public init(
        instances: [Instance], fallback: (Instance) -> EntryContent?, settings: EngineSettings = EngineSettings(),
        now: Date
    ) {
        self.settings = settings
        states.reserveCapacity(instances.count)
        indexByName.reserveCapacity(instances.count)
        for instance in instances {
            var state = InstanceState(
                instance: instance, fallback: fallback(instance) ?? EntryContent(text: instance.name))
            state.requested = true
            state.cronDeadline = state.nextCronDate(after: now)
            indexByName[instance.name] = states.count
            states.append(state)
        }
        generations = Array(repeating: 0, count: states.count)
        unansweredInstances = states.count
        for index in states.indices {
            reschedule(index, now: now)
        }
    }

    public var instanceNames: [String] { states.map(\.instance.name) }

    /// The token of the latest reload started; a completion with a larger token began after this moment.
    public var lastIssuedToken: UInt64 { nextToken - 1 }

    /// True when `token` is the reload of `name` the engine is waiting for (not superseded or timed out).
    public func isAwaiting(instance name: String, token: UInt64) -> Bool {
        // Borrowed, not `states[index]`: outside this module the engine is not specialised, and that copies the state.
        guard let index = indexByName[name] else { return false }
        return states.withUnsafeBufferPointer { $0[index].inFlight == token }
    }

    /// Takes a new configuration: instances whose settings are unchanged keep their timelines and deadlines,
    /// changed ones start again from their placeholders, new ones start, removed ones go.
    /// - Returns: the names removed or restarted, whose files should go, and what is due now.
    public mutating func reconfigure(
        _ instances: [Instance], placeholders: [String: EntryContent], now: Date
    ) -> (restartedOrRemoved: [String], actions: [EngineAction]) {
        var kept: [InstanceState<Instance>] = []
        var restartedOrRemoved: [String] = []
        let newNames = Set(instances.map(\.name))
        for state in states where !newNames.contains(state.instance.name) {
            restartedOrRemoved.append(state.instance.name)
        }
        for instance in instances {
            if let index = indexByName[instance.name], states[index].instance.sameSettings(as: instance) {
                kept.append(states[index])
                continue
            }
            if indexByName[instance.name] != nil { restartedOrRemoved.append(instance.name) }
            var state = InstanceState(
                instance: instance, fallback: placeholders[instance.name] ?? EntryContent(text: instance.name))
            state.requested = true
            state.cronDeadline = state.nextCronDate(after: now)
            kept.append(state)
        }
        states = kept
        indexByName = Dictionary(uniqueKeysWithValues: states.enumerated().map { ($1.instance.name, $0) })
        generations = Array(repeating: 0, count: states.count)
        unansweredInstances = states.count(where: { !$0.hasAnswered })
        heap.removeAll()
        for index in states.indices {
            reschedule(index, now: now)
            // A kept widget whose entry changed since it was last shown (a second boundary passed while a large
            // config was read) is due now: its next wake is after that change, which would never be shown.
            if states[index].shown != states[index].content(at: now) {
                heap.push(DeadlineHeap.Item(date: now, index: index, generation: generations[index]))
            }
        }
        return (restartedOrRemoved, advance(now: now))
    }

    /// The earliest instant anything is due; nil when nothing ever will be without a request.
    public mutating func nextDeadline() -> Date? {
        while let top = heap.first {
            if generations[top.index] == top.generation { return top.date }
            _ = heap.popFirst()
        }
        return nil
    }

    /// Asks for reloads. An instance already reloading gets exactly one more after the current one;
    /// requests that arrive together collapse into one.
    /// - Returns: the names of the instances the target matched.
    @discardableResult
    public mutating func request(_ target: ReloadTarget, now: Date) -> [String] {
        // One instance, the common case (a FIFO line, a click): no array of indices.
        if case .instance(let name) = target {
            guard let index = indexByName[name] else { return [] }
            requestReload(at: index, now: now)
            return [name]
        }
        let matched: [Int]
        switch target {
        case .all: matched = Array(states.indices)
        case .kind(let kind): matched = states.indices.filter { states[$0].instance.kind == kind }
        case .instance: matched = []  // answered above
        }
        for index in matched { requestReload(at: index, now: now) }
        return states.withUnsafeBufferPointer { states in matched.map { states[$0].instance.name } }
    }

    /// One more reload at once, or right after the one in flight.
    private mutating func requestReload(at index: Int, now: Date) {
        if states[index].inFlight != nil {
            states[index].requestedDuringReload = true
        } else {
            states[index].requested = true
            reschedule(index, now: now)
        }
    }

    /// Everything due at `now`: content that changed, and reloads to start.
    public mutating func advance(now: Date) -> [EngineAction] {
        var actions: [EngineAction] = []
        var due = dueBuffer
        dueBuffer = []
        while let top = heap.first, top.date <= now {
            _ = heap.popFirst()
            if generations[top.index] == top.generation { due.append(top.index) }
        }
        actions.reserveCapacity(due.count)
        for index in due {
            step(index, now: now, into: &actions)
        }
        due.removeAll(keepingCapacity: true)
        dueBuffer = due
        return actions
    }

    /// The wall clock was set (NTP step, settimeofday, time-zone change) or the machine resumed: every
    /// instance is looked at again. Missed deadlines fire once, since each instance is stepped once and its
    /// next `schedule:` time is taken from `now`. An instance whose last reload started after `now` (the clock
    /// went back past it) is reloaded: its timeline and policy were made for a time that has not come yet, and a
    /// clock would otherwise show its first entry, frozen, until then.
    public mutating func clockChanged(now: Date) -> [EngineAction] {
        var actions: [EngineAction] = []
        for index in states.indices {
            if let cron = states[index].cronDeadline, cron > now {
                // After a jump backward the old fire time may be far ahead: take the next one from now.
                states[index].cronDeadline = states[index].nextCronDate(after: now)
            }
            if let started = states[index].lastReload?.at, started > now {
                if states[index].inFlight != nil {
                    states[index].requestedDuringReload = true
                } else {
                    states[index].requested = true
                }
            }
            step(index, now: now, into: &actions)
        }
        return actions
    }

    /// A provider call finished. Results of calls that were superseded or timed out are ignored.
    public mutating func completed(
        instance name: String, token: UInt64, result: Result<Timeline, ProviderFailure>, now: Date
    ) -> [EngineAction] {
        guard let index = indexByName[name], states[index].inFlight == token else { return [] }
        endCall(at: index)
        switch result {
        case .success(let timeline):
            states[index].accept(timeline, now: now, settings: settings)
        case .failure(let failure):
            states[index].consecutiveFailures.addOneSaturating()
            states[index].failure = failure.message
            states[index].retryAt = now.addingTimeInterval(
                settings.backoff(afterFailures: Int(states[index].consecutiveFailures)))
        }
        if states[index].requestedDuringReload {
            states[index].requestedDuringReload = false
            states[index].requested = true
        }
        return stepped(index, now: now)
    }

    /// Shows a timeline that did not come from a reload (an intent produced it), as if a reload had.
    /// A reload in flight is superseded: its late answer is ignored.
    public mutating func install(_ timeline: Timeline, for name: String, now: Date) -> [EngineAction] {
        guard let index = indexByName[name] else { return [] }
        endCall(at: index)
        // As if a request had started a reload and it answered now: a reload the timeline asks for later is kept as
        // asked, and one it asks for at once is spaced from this instant.
        states[index].lastReload = LastReload(at: now, wasDue: false)
        states[index].accept(timeline, now: now, settings: settings)
        return stepped(index, now: now)
    }

    /// A persistent provider failed: it stopped (its command exited) and will start again, or it sent what cannot be
    /// shown. Its last entry shows, marked stale, with the reason, until its next update.
    public mutating func providerFailed(instance name: String, reason: String, now: Date) -> [EngineAction] {
        guard let index = indexByName[name] else { return [] }
        noteAnswer(at: index)
        states[index].failure = reason
        states[index].recordChanged = true
        return stepped(index, now: now)
    }

    /// The instance answered, with a timeline or a failure: the call in flight, if any, is over (a late answer to it is
    /// ignored), and its record changed.
    private mutating func endCall(at index: Int) {
        noteAnswer(at: index)
        states[index].call = nil
        states[index].recordChanged = true
    }

    /// `step(_:now:into:)` for one instance, with a list of its own.
    private mutating func stepped(_ index: Int, now: Date) -> [EngineAction] {
        var actions: [EngineAction] = []
        step(index, now: now, into: &actions)
        return actions
    }

    /// Looks at one instance at `now`: shows changed content, starts a due reload, and queues its next wake; what the
    /// loop must do is appended to `actions`.
    private mutating func step(_ index: Int, now: Date, into actions: inout [EngineAction]) {
        if let (name, token) = states[index].callTimedOut(at: now) {
            // The provider is too slow: its call counts as failed, and its late answer will be ignored.
            let seconds = timeout(of: states.withUnsafeBufferPointer { $0[index].instance })
            let text = seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
            let reason = "timed out after \(text) s"
            actions.append(.failed(instance: name, token: token, reason: reason))
            actions += completed(instance: name, token: token, result: .failure(ProviderFailure(reason)), now: now)
            return
        }
        states[index].step(now: now, settings: settings, nextToken: &nextToken, into: &actions)
        reschedule(index, now: now)
    }

    /// The loop handed the call to a provider thread only now (it waited for a free one): its timeout counts from
    /// here, not from when the engine asked for it.
    public mutating func started(instance name: String, token: UInt64, now: Date) {
        guard let index = indexByName[name], states[index].inFlight == token else { return }
        let deadline = now.addingTimeInterval(timeout(of: states[index].instance))
        states[index].call?.deadline = deadline
        // Added beside the queued wake-up, not in its place: an entry change due before `now` must still be shown
        // by the next `advance`. The earlier wake-up then finds nothing timed out and looks again.
        heap.push(DeadlineHeap.Item(date: deadline, index: index, generation: generations[index]))
    }

    /// The instance at `index` is about to get a timeline or a failure: one fewer unanswered if it had neither.
    private mutating func noteAnswer(at index: Int) {
        if !states[index].hasAnswered { unansweredInstances -= 1 }
    }

    /// How long a provider call of `instance` may take (`EngineSettings.timeout(of:)`).
    private func timeout(of instance: Instance) -> TimeInterval {
        settings.timeout(of: instance)
    }

    private mutating func reschedule(_ index: Int, now: Date) {
        generations[index] &+= 1
        if let wake = states[index].wake(after: now) {
            compactHeapIfMostlyStale()
            heap.push(DeadlineHeap.Item(date: wake, index: index, generation: generations[index]))
        }
    }

    /// Items superseded by a later deadline stay in the heap until they surface; at start-up every instance leaves two
    /// or three behind (its first wake, its call's timeout, its first timeline), so with doubling alone the heap's
    /// array would hold about three times as many items as instances. When the array is full and a quarter of it or
    /// more is stale, the stale items go instead of the array doubling; each such pass frees room for as many pushes as
    /// it looked at items, over four, so pushes stay O(log n) amortized.
    private mutating func compactHeapIfMostlyStale() {
        guard heap.count == heap.capacity, heap.count >= 64 else { return }
        let generations = self.generations
        let live = heap.count { generations[$0.index] == $0.generation }
        guard live <= heap.count / 4 * 3 else { return }
        heap.removeAll { generations[$0.index] != $0.generation }
    }
}
