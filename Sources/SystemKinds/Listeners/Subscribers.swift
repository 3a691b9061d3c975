/// The subscribers of one of the process-wide listeners (uevent, rtnetlink, MPRIS, sound server), each under the id its
/// `ListenerSubscription` cancels.
///
/// A value kept in the listener's own state, under its lock, so that a subscriber comes and goes together with whatever
/// else the listener keeps there (its started flag, its requests, the state it tells).
struct Subscribers<Subscriber> {
    private(set) var byID: [Int: Subscriber] = [:]
    private var lastID = 0

    /// Adds `subscriber` under an id no other subscriber had, and answers it.
    mutating func add(_ subscriber: Subscriber) -> Int {
        lastID += 1
        byID[lastID] = subscriber
        return lastID
    }

    mutating func remove(_ id: Int) {
        byID[id] = nil
    }

    /// The subscriber under `id`, if it is still subscribed. Setting it keeps what the listener changed (a deadline)
    /// only while it is subscribed: one removed meanwhile does not come back. Setting nil removes it.
    subscript(id: Int) -> Subscriber? {
        get { byID[id] }
        set {
            guard let newValue else { return remove(id) }
            if byID[id] != nil { byID[id] = newValue }
        }
    }

    var isEmpty: Bool { byID.isEmpty }

    /// A copy of the subscribers, to be told outside the lock.
    var snapshot: [Subscriber] { Array(byID.values) }

    /// The nearest of the subscribers' wake-up deadlines, or nil when none asks for one: the thread then sleeps until
    /// something happens, so that nothing wakes while nothing changes.
    func nearest<Deadline: Comparable>(_ deadline: (Subscriber) -> Deadline?) -> Deadline? {
        byID.values.compactMap(deadline).min()
    }
}

extension Subscribers: Sendable where Subscriber: Sendable {}
