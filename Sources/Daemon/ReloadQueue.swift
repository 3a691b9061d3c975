/// Reloads the engine has started that wait for a slot on the provider threads.
///
/// At most `limit` provider calls are handed to the executor at once. A start-up of 10,000 widgets then queues
/// 10,000 names and tokens here (24 bytes each) instead of 10,000 tasks holding their instance and context (about
/// 450 bytes each), which set the daemon's peak memory, and the executor's own queue stays short.
struct ReloadQueue {
    struct Reload: Equatable {
        var instance: String
        var token: UInt64
    }

    let limit: Int
    /// Calls handed out and not yet reported finished.
    private(set) var running = 0
    private var waiting: [Reload] = []
    /// The first entry of `waiting` not handed out: taking from the front of an array is O(n), this is O(1).
    private var head = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    var waitingCount: Int { waiting.count - head }

    mutating func add(_ instance: String, token: UInt64) {
        waiting.append(Reload(instance: instance, token: token))
    }

    /// The oldest waiting reload, counted as running, while fewer than `limit` run; nil otherwise.
    mutating func next() -> Reload? {
        guard running < limit, head < waiting.count else { return nil }
        let reload = waiting[head]
        head += 1
        running += 1
        if head == waiting.count {
            // Emptied: let a burst's storage go rather than keep it for the next one; a few slots are kept, so a single
            // reload (a FIFO line) allocates nothing here before its file is written.
            waiting.removeAll(keepingCapacity: waiting.capacity <= 16)
            head = 0
        } else if head >= 1024, head * 2 >= waiting.count {
            waiting.removeFirst(head)
            head = 0
        }
        return reload
    }

    /// A call handed out by `next()` finished (or was skipped): its slot is free.
    mutating func finished() {
        running = max(0, running - 1)
    }
}
